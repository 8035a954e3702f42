/*
 * CatalogService's limits the spec leaves open ("not shown"), in one place;
 * docs/catalog.md lists them.
 */
export const CATALOG_LIMITS = {
  /** UploadContent calls per user per UTC day (ListUploads reports it as `dailyLimit`). */
  dailyUploads: 100,
  /** Testers per experience. */
  testersMax: 200,
  /** ListExperiences when `limit` is 0. */
  listExperiencesDefault: 20,
  /** ListVersions when `limit` is 0 (the spec's default). */
  listVersionsDefault: 50,
  /** Largest peer-tier session: every peer connects to every other. */
  peerMaxPlayers: 16,
} as const;

/** The start of the UTC day holding `ms`: upload limits reset at midnight UTC. */
export function utcDayStart(ms: number): number {
  return ms - (((ms % 86_400_000) + 86_400_000) % 86_400_000);
}
