/**
 * A request body the sandbox's policy evaluation accepts: a token transfer
 * on Sepolia, checked against the seeded policies. Tests vary only the
 * deduplication ID (and, where it matters, the amount).
 */
export const SEPOLIA = '16015286601757825753';

/** `POST /evaluate`'s body: a transfer of `amount` by a seeded caller, deduplicated on `id`. */
export function transferEvaluation(id: string, amount = '1000') {
  return {
    caller_address: '0x742d35Cc6634C0532925a3b844Bc454e4438f44e',
    subject: '0xB8f4CC5179D1c68b54003171CD8D06587731C073',
    function_signature: 'transfer(address,uint256)',
    parameters: { to: '0xB8f4CC5179D1c68b54003171CD8D06587731C073', amount },
    chain_selector: SEPOLIA,
    unique_evaluation_id: id,
  };
}
