// Shared by the search route's schema and the search boxes (client code: no server imports here).

/** Longest search query, in characters: the boxes stop typing there, the API refuses more. */
export const MAX_SEARCH_CHARS = 200;
