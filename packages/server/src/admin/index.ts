export { createAdminApi, type AdminApiOptions, type AdminApiHandler } from "./create-admin-api.js";
export { bootstrapOperators, addOperator, removeOperator, listOperators, BOOTSTRAP_OPERATOR, type BootstrapResult, type OperatorDeps } from "./operator-accounts.js";
export { OPERATOR_TOKEN_PREFIX, DEFAULT_OPERATOR_TOKEN_SECONDS } from "./operator-tokens.js";
