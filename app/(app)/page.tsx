import { modelInfoIfAvailable } from "@/lib/chat/operations";
import { requirePageUser } from "@/lib/auth/current-user";
import { DemoBadge } from "@/components/chat/DemoBadge";
import { HomeComposer } from "@/components/chat/HomeComposer";
import { maxAttachmentBytes } from "@/lib/attachments/limits";
import { maxMessageChars } from "@/lib/chat/inputs";
import { LayersIcon } from "@/components/ui/icons";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  await requirePageUser();
  const info = await modelInfoIfAvailable();
  return (
    <div className="flex flex-1 items-center justify-center p-8">
      <div className="w-full max-w-xl text-center">
        <LayersIcon className="mx-auto size-8 text-sky-600 dark:text-sky-400" />
        <h1 className="mt-3 text-lg font-semibold tracking-tight">Long conversations, nothing lost</h1>
        <p className="mt-2 text-[13px] leading-relaxed text-neutral-600 dark:text-neutral-400">
          Strata summarizes old messages into layered compactions so a conversation never hits the context limit —
          and every compaction opens back up to the original words.
        </p>
        <div className="mt-5">
          <HomeComposer maxChars={maxMessageChars()} maxAttachmentBytes={maxAttachmentBytes()} />
        </div>
        {info ? (
          <p className="mt-4 flex items-center justify-center gap-2 text-[12px] text-neutral-500">
            Model <code className="font-mono text-neutral-700 dark:text-neutral-300">{info.defaultModel}</code>
            {info.demo ? <DemoBadge /> : null}
          </p>
        ) : null}
      </div>
    </div>
  );
}
