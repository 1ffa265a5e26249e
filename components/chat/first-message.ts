// The message typed on the home page travels to the conversation it creates: the home
// composer stores the conversation just before its first message is sent, and the
// conversation's composer sends it on opening (holding it, like any send, until the
// server has accepted it). Module state: it survives the client-side navigation between them.
const waiting = new Map<string, string>();

export function stashFirstMessage(conversationId: string, content: string): void {
  waiting.set(conversationId, content);
}

export function peekFirstMessage(conversationId: string): string | undefined {
  return waiting.get(conversationId);
}

/** The message waiting for this conversation, once. */
export function takeFirstMessage(conversationId: string): string | undefined {
  const content = waiting.get(conversationId);
  waiting.delete(conversationId);
  return content;
}
