export { OperatorRole, OPERATOR_ROLES } from "./operator-role.js";
export {
  defineAdminService, type AdminMethodSpec, type AdminMethodDesc, type AdminServiceDesc, type AdminMethodInput, type AdminMethodRequest, type AdminMethodOutput,
} from "./define-admin-service.js";
export { adminServices, allAdminMethods, adminShapeTable, ADMIN_API_PACKAGE, OperatorService, PlayerAdminService, ModerationService, PayoutAdminService, AuditService, type AdminServices } from "./admin-services.js";
export { REASON_MAX, ADMIN_PAGE_MAX, ADMIN_PAGE_DEFAULT, CREDIT_ADJUSTMENT_MAX } from "./admin-schemas.js";
export * as adminSchemas from "./admin-schemas.js";
