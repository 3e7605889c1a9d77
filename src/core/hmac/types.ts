/** Computes lowercase-hex HMAC-SHA256 tags with one secret absorbed once, and SHA-256 of bodies. */
export interface HmacSigner {
  /** HMAC-SHA256 of `message` (UTF-8), keyed with the secret, as lowercase hex. */
  sign(message: string): string;
  /** SHA-256 of `body` (UTF-8) as lowercase hex. */
  sha256Hex(body: string): string;
}

/** SHA-256 of the empty string: the body hash of every GET, computed once here instead of per request. */
export const EMPTY_BODY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
