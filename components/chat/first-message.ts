// The message typed on the home page travels to the conversation it creates: the home
// composer stores the conversation (and uploads the files picked there to it) just
// before its first message is sent, and the conversation's composer sends it on opening
// (holding it, like any send, until the server has accepted it). Module state: it
// survives the client-side navigation between them.
export type FirstMessage = { content: string; attachmentIds: string[] };

const waiting = new Map<string, FirstMessage>();

export function stashFirstMessage(conversationId: string, content: string, attachmentIds: string[] = []): void {
  waiting.set(conversationId, { content, attachmentIds });
}

export function peekFirstMessage(conversationId: string): string | undefined {
  return waiting.get(conversationId)?.content;
}

/** The message waiting for this conversation, once. */
export function takeFirstMessage(conversationId: string): FirstMessage | undefined {
  const first = waiting.get(conversationId);
  waiting.delete(conversationId);
  return first;
}
