// Every user-facing operation, once. Server actions (app/actions.ts) and the JSON API
// (app/api/**) are thin shells around these: they resolve the signed-in user
// (lib/auth/current-user.ts), pass it as `actor`, and translate AppError into a result
// or an HTTP status. Inputs are validated with the schemas in ./inputs; every database
// call names the actor, so another user's ids answer "not found".
//
// The operations live in one module per feature (./*-ops.ts); this is their one entry
// point. Helpers the features share among themselves (regenerate, parseSettings, the
// admin check) are not re-exported.
export { type Actor, parse } from "./actor";
export {
  createConversation,
  listConversations,
  getConversation,
  updateConversation,
  deleteConversation,
  pinMessage,
  changeState,
  watchRunningTurn,
  stop,
} from "./conversation-ops";
export { timeline, compactionChildren, treePath, coveredPinned, search } from "./navigation-ops";
export {
  exportFormatSchema,
  exportConversation,
  importConversation,
  carriedOverText,
  carriedPinnedText,
  conversationFromSummary,
} from "./transfer-ops";
export { rewind, prepareEdit, switchVersion } from "./version-ops";
export { meter, attempts, type CompactResult, compactNow, applyProposal } from "./compaction-ops";
export {
  getSettings,
  settingsForm,
  saveSettings,
  updateSettings,
  conversationSettings,
  updateConversationSettings,
} from "./settings-ops";
export { signupState, adminSettings, saveDefaults, setSignupsOpen, modelInfo, modelInfoIfAvailable } from "./instance-ops";
export {
  listToolServers,
  createToolServer,
  updateToolServer,
  deleteToolServer,
  conversationToolServers,
  setConversationToolServer,
} from "./mcp-ops";
export { listTokens, createToken, revokeToken, revokeAllTokens, listSessions, revokeSession } from "./account-ops";
export { startTurn } from "./turn-ops";
export { answerToolApproval, allowedTools, disallowToolOp as disallowTool } from "./approval-ops";
export { conversationCost, accountCost, prices, savePrice } from "./cost-ops";
export { undoCompaction } from "./undo-ops";
export { pinnedList } from "./pinned-ops";
export { pinConversation, archiveConversation, renameConversation, conversationPage, deleteMessage, exportAllConversations } from "./organise-ops";
export { accountHasPassword, updateProfile, deleteAccount } from "./account-ops";
export { listUsers, setDisabled as setUserDisabled, setRole as setUserRole, createResetLink } from "./admin-user-ops";
export { uploadAttachment, conversationAttachments, downloadAttachment, removeAttachment, type AttachmentView } from "./attachment-ops";
export {
  modelSettings,
  updateModelSettings,
  chatDefaults,
  saveChatDefaults,
  adminModelList,
  saveAdminModelList,
  imageModelLists,
  saveImageModelLists,
} from "./model-ops";
export {
  createShareLink,
  listShareLinks,
  revokeShareLink,
  openSharedConversation,
  sharedTimeline,
  sharedChildren,
  sharedTreePath,
  sharedPinned,
  sharedAttachments,
  sharedAttachmentFile,
} from "./share-ops";
