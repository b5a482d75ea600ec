// App Store Server Notifications v2 (https://developer.apple.com/documentation/appstoreservernotifications):
// the body is {"signedPayload": JWS}; the JWS (ES256) carries its certificate chain in the x5c header (leaf,
// intermediate, root). Verified here: every certificate is issued and signed by the next, each is valid at the
// payload's signing time, the chain's last certificate is the configured Apple root (or is signed by it), and
// the JWS signature verifies with the leaf's key. Anything else is refused.
import { X509Certificate } from "node:crypto";
import { compactVerify, decodeProtectedHeader } from "jose";

export class JwsRefused extends Error {}

function certOf(b64: unknown): X509Certificate {
  if (typeof b64 !== "string" || b64.length > 20_000) throw new JwsRefused("x5c entry is not a certificate");
  try {
    return new X509Certificate(Buffer.from(b64, "base64"));
  } catch {
    throw new JwsRefused("x5c entry is not a certificate");
  }
}

function validAt(cert: X509Certificate, at: Date): boolean {
  return new Date(cert.validFrom) <= at && at <= new Date(cert.validTo);
}

/** Verifies a JWS signed by a chain to `root`; answers its JSON payload. */
export async function verifyAppleJws(
  jws: string,
  root: X509Certificate,
  now = new Date(),
): Promise<Record<string, unknown>> {
  if (typeof jws !== "string" || jws.length > 200_000 || jws.split(".").length !== 3) {
    throw new JwsRefused("not a compact JWS");
  }
  let header;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw new JwsRefused("malformed JWS header");
  }
  if (header.alg !== "ES256") throw new JwsRefused("alg must be ES256");
  const x5c = header.x5c;
  if (!Array.isArray(x5c) || x5c.length < 2 || x5c.length > 5) throw new JwsRefused("x5c chain missing");
  const chain = x5c.map(certOf);
  for (let i = 0; i < chain.length - 1; i++) {
    const cert = chain[i]!;
    const issuer = chain[i + 1]!;
    if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) throw new JwsRefused("broken chain");
    if (!issuer.ca) throw new JwsRefused("issuer is not a CA");
  }
  const last = chain[chain.length - 1]!;
  const anchored =
    last.fingerprint256 === root.fingerprint256 || (last.checkIssued(root) && last.verify(root.publicKey));
  if (!anchored) throw new JwsRefused("chain does not end at the Apple root");
  let payload: Record<string, unknown>;
  try {
    const verified = await compactVerify(jws, chain[0]!.publicKey, { algorithms: ["ES256"] });
    payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
  } catch {
    throw new JwsRefused("bad signature");
  }
  if (typeof payload !== "object" || payload === null) throw new JwsRefused("payload is not an object");
  const signedAt = typeof payload.signedDate === "number" ? new Date(payload.signedDate) : now;
  if (!chain.every((c) => validAt(c, signedAt)) || !validAt(root, signedAt)) {
    throw new JwsRefused("certificate not valid at signing time");
  }
  return payload;
}
