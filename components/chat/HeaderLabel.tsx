/**
 * The words of a chat-header button. Between 1024 and 1536 px only the button's icon shows
 * (the words stay its accessible name, and its tooltip), so that the conversation's title
 * keeps room beside a dozen controls; in the header's menu and on wide screens the words show.
 */
export function HeaderLabel({ children }: { children: React.ReactNode }) {
  return <span className="lg:max-2xl:sr-only">{children}</span>;
}

/**
 * Below 1024 px the header's controls are the rows of one menu: beside the sidebar a
 * 768–1023 px screen leaves the header 512–767 px, and the row of controls took all of
 * it (the conversation's title was 0 px wide at 1024 px). In the header they differ
 * (bordered buttons, plain ones, a meter, an icon); as rows they must read as one list, so
 * every control adds this: the row's width and height, icon then words from the left.
 */
export const PHONE_MENU_ROW = "max-lg:h-9 max-lg:w-full max-lg:justify-start max-lg:gap-2 max-lg:px-2 max-lg:text-[13px] max-lg:font-medium";

/** What a bordered header button (Button's secondary) also adds to be a plain row like the others. */
export const PHONE_MENU_PLAIN =
  "max-lg:border-0 max-lg:bg-transparent max-lg:text-neutral-600 max-lg:hover:bg-neutral-100 max-lg:disabled:text-neutral-400 max-lg:dark:bg-transparent max-lg:dark:text-neutral-400 max-lg:dark:hover:bg-neutral-800";
