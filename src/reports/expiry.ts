/**
 * Whether a report can no longer be verified: `nowSeconds` is after its
 * `expiresAt` (a report is still valid during the second `expiresAt` itself).
 *
 * @param nowSeconds Unix seconds; defaults to the current time.
 */
export function isReportExpired(report: { readonly expiresAt: number }, nowSeconds: number = Math.floor(Date.now() / 1000)): boolean {
  return nowSeconds > report.expiresAt;
}
