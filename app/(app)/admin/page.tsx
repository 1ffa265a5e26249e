import { notFound } from "next/navigation";
import { adminModelList, adminSettings, imageModelLists, listToolServers, listUsers, modelInfoIfAvailable, prices } from "@/lib/chat/operations";
import { ToolServersAdmin } from "@/components/admin/ToolServersAdmin";
import { UsersAdmin } from "@/components/admin/UsersAdmin";
import { ModelListAdmin } from "@/components/admin/ModelListAdmin";
import { ImageModelsAdmin } from "@/components/admin/ImageModelsAdmin";
import { requirePageUser } from "@/lib/auth/current-user";
import { DEFAULT_SETTINGS } from "@/lib/compression/settings";
import { OVERHEAD_TOKENS } from "@/lib/chat/tool-set";
import { SettingsForm } from "@/components/settings/SettingsForm";
import { SignupSwitch } from "@/components/account/SignupSwitch";
import { PriceTable } from "@/components/account/PriceTable";
import { authConfig } from "@/lib/auth/config";
import { saveDefaultsAction } from "@/app/actions";

export const dynamic = "force-dynamic";

export default async function AdminPage() {
  const user = await requirePageUser();
  // Not the admin: the page does not exist for them.
  if (user.role !== "admin") notFound();
  const [{ defaults, signupsOpen }, info, priceList, toolServers, users, modelList, imageLists] = await Promise.all([
    adminSettings(user),
    modelInfoIfAvailable(),
    prices(user),
    listToolServers(user),
    listUsers(user),
    adminModelList(user),
    imageModelLists(user),
  ]);
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <header className="sticky top-0 z-10 flex h-12 items-center gap-3 border-b border-neutral-200 bg-white/90 px-6 backdrop-blur dark:border-neutral-800 dark:bg-neutral-950/90">
        <h1 className="text-[13.5px] font-semibold">Admin</h1>
        <span className="text-[12px] text-neutral-500">Defaults for every user; each user&apos;s own settings come first.</span>
      </header>
      <div className="mx-auto max-w-3xl space-y-6 px-6 pt-6">
        <UsersAdmin initialPage={users} selfId={user.id} />
        <SignupSwitch initialOpen={signupsOpen} closedByEnvironment={authConfig().STRATA_SIGNUPS === "closed"} />
        <ModelListAdmin initialModels={modelList} serverModels={info?.models ?? null} />
        <ImageModelsAdmin initial={imageLists} />
        <PriceTable initialPrices={priceList} models={info?.models ?? null} />
        <ToolServersAdmin initialServers={toolServers} />
      </div>
      <SettingsForm
        initialSettings={defaults}
        defaults={DEFAULT_SETTINGS}
        models={info?.models ?? null}
        defaultModel={info?.defaultModel ?? null}
        overheadTokens={OVERHEAD_TOKENS}
        save={saveDefaultsAction}
      />
    </div>
  );
}
