"use client";
import { useEffect } from "react";
import { useChat } from "@/components/stores/chat-store";
import { revealAnchor, useReveal } from "@/components/stores/reveal-store";

/**
 * Opens what the URL fragment (`#m-SEQ`, `#s-FROM-lLEVEL`) or a search result points
 * at, once this conversation's timeline is loaded: on arrival, after a reload, and on
 * every later request.
 */
export function HashReveal({ conversationId }: { conversationId: string }) {
  const ready = useChat((state) => state.conversationId === conversationId);
  const request = useReveal((state) => state.request);

  useEffect(() => {
    if (!ready) return;
    const pending = useReveal.getState().request;
    if (pending?.conversationId === conversationId) return; // the effect below runs it
    if (window.location.hash) void revealAnchor(window.location.hash);
  }, [ready, conversationId]);

  useEffect(() => {
    if (!ready || !request || request.conversationId !== conversationId) return;
    useReveal.setState({ request: null });
    void revealAnchor(request.anchor);
  }, [ready, request, conversationId]);

  useEffect(() => {
    const onHashChange = () => void revealAnchor(window.location.hash);
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, []);

  return null;
}
