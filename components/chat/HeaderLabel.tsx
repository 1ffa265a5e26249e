/**
 * The words of a chat-header button. Between 768 and 1536 px only the button's icon shows
 * (the words stay its accessible name, and its tooltip), so that the conversation's title
 * keeps room beside a dozen controls; in the phone menu and on wide screens the words show.
 */
export function HeaderLabel({ children }: { children: React.ReactNode }) {
  return <span className="md:max-2xl:sr-only">{children}</span>;
}

/**
 * Below 768 px the header's controls are the rows of one menu. In the header they differ
 * (bordered buttons, plain ones, a meter, an icon); as rows they must read as one list, so
 * every control adds this: the row's width and height, icon then words from the left.
 */
export const PHONE_MENU_ROW = "max-md:h-9 max-md:w-full max-md:justify-start max-md:gap-2 max-md:px-2 max-md:text-[13px] max-md:font-medium";

/** What a bordered header button (Button's secondary) also adds to be a plain row like the others. */
export const PHONE_MENU_PLAIN =
  "max-md:border-0 max-md:bg-transparent max-md:text-neutral-600 max-md:hover:bg-neutral-100 max-md:disabled:text-neutral-400 max-md:dark:bg-transparent max-md:dark:text-neutral-400 max-md:dark:hover:bg-neutral-800";
