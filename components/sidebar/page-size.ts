/** Conversations per page of the sidebar (the server render and each page loaded on scroll). */
export const PAGE_SIZE = 100;
