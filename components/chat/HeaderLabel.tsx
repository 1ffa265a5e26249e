/**
 * The words of a chat-header button. Between 768 and 1536 px only the button's icon shows
 * (the words stay its accessible name, and its tooltip), so that the conversation's title
 * keeps room beside a dozen controls; in the phone menu and on wide screens the words show.
 */
export function HeaderLabel({ children }: { children: React.ReactNode }) {
  return <span className="md:max-2xl:sr-only">{children}</span>;
}
