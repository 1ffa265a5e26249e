import { chatDefaults, modelInfoIfAvailable, settingsForm } from "@/lib/chat/operations";
import { requirePageUser } from "@/lib/auth/current-user";
import { OVERHEAD_TOKENS } from "@/lib/chat/tool-set";
import { SettingsForm } from "@/components/settings/SettingsForm";
import { ChatDefaultsForm } from "@/components/settings/ChatDefaultsForm";
import { DemoBadge } from "@/components/chat/DemoBadge";
import { saveSettingsAction } from "@/app/actions";

export const dynamic = "force-dynamic";

export default async function SettingsPage() {
  const user = await requirePageUser();
  const [{ settings, defaults }, info, instructions] = await Promise.all([settingsForm(user), modelInfoIfAvailable(), chatDefaults(user)]);
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <header className="sticky top-0 z-10 flex h-12 items-center gap-3 border-b border-neutral-200 bg-white/90 px-4 backdrop-blur md:px-6 dark:border-neutral-800 dark:bg-neutral-950/90">
        <h1 className="text-[13.5px] font-semibold">Compression settings</h1>
        <span className="hidden text-[12px] text-neutral-500 md:inline">Yours: every conversation starts from them. Changes apply from the next turn.</span>
        <span className="ml-auto flex items-center gap-2 font-mono text-[11.5px] text-neutral-500">
          {info?.defaultModel}
          {info?.demo ? <DemoBadge /> : null}
        </span>
      </header>
      <ChatDefaultsForm initial={instructions} />
      <SettingsForm
        initialSettings={settings}
        defaults={defaults}
        models={info?.models ?? null}
        defaultModel={info?.defaultModel ?? null}
        overheadTokens={OVERHEAD_TOKENS}
        save={saveSettingsAction}
      />
    </div>
  );
}
