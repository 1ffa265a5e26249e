// What conversations cost, and the admin's price table they are priced by.
import { getDb } from "../db/client";
import { accountCost as readAccountCost, conversationCost as readConversationCost, listPrices, setPrice } from "../db/prices";
import { modelPriceSchema, type AccountCostView, type ConversationCostView, type ModelPriceView } from "../pricing";
import { type Actor, assertAdmin, parse } from "./actor";
import { idSchema } from "./inputs";

export async function conversationCost(actor: Actor, conversationId: unknown): Promise<ConversationCostView> {
  return readConversationCost(await getDb(), actor.id, parse(idSchema, conversationId));
}

export async function accountCost(actor: Actor): Promise<AccountCostView> {
  return readAccountCost(await getDb(), actor.id);
}

export async function prices(actor: Actor): Promise<ModelPriceView[]> {
  assertAdmin(actor);
  return listPrices(await getDb());
}

/** Sets (or, with all three prices null, clears) a model's price; it applies from the next call on. */
export async function savePrice(actor: Actor, input: unknown): Promise<ModelPriceView[]> {
  assertAdmin(actor);
  const price = parse(modelPriceSchema, input);
  const db = await getDb();
  await setPrice(db, price);
  return listPrices(db);
}
