/** node-postgres's own conversion of a parameter to what Bind sends (text, or a Buffer sent as binary). */
declare module "pg/lib/utils.js" {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
