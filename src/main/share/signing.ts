// Ed25519 signatures of a bundle's manifest (node:crypto): key pairs as PEM, signatures as a small JSON file.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface BundleSignature {
  algorithm: 'ed25519';
  /** SHA-256 of the public key (DER, SubjectPublicKeyInfo), hex: which key signed. */
  keyFingerprint: string;
  /** Base64 signature of the bytes of bundle.json. */
  signature: string;
}

export function keyFingerprint(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return createHash('sha256')
    .update(pub.export({ type: 'spki', format: 'der' }))
    .digest('hex');
}

function readKey(file: string, kind: 'private' | 'public'): KeyObject {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(
      `${file}: cannot read the ${kind} key (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      { cause: e },
    );
  }
  let key: KeyObject;
  try {
    key = kind === 'private' ? createPrivateKey(text) : createPublicKey(text);
  } catch (e) {
    throw new Error(
      `${file}: not a PEM ${kind} key (${(e as Error).message}); make a pair with \`proctor bundle keygen\``,
      { cause: e },
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(
      `${file}: a ${key.asymmetricKeyType ?? 'unknown'} key; bundles are signed with Ed25519 keys`,
    );
  return key;
}

export const readPrivateKey = (file: string) => readKey(file, 'private');
export const readPublicKey = (file: string) => readKey(file, 'public');

export function generateSigningKeys(): { privatePem: string; publicPem: string; fingerprint: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: keyFingerprint(publicKey),
  };
}

export function signBytes(data: Buffer, key: KeyObject): BundleSignature {
  return {
    algorithm: 'ed25519',
    keyFingerprint: keyFingerprint(key),
    signature: sign(null, data, key).toString('base64'),
  };
}

/** Whether `sig` is a valid signature of `data` by `key`. */
export function signatureHolds(data: Buffer, sig: BundleSignature, key: KeyObject): boolean {
  if (sig.algorithm !== 'ed25519' || typeof sig.signature !== 'string') return false;
  try {
    return verify(null, data, key, Buffer.from(sig.signature, 'base64'));
  } catch {
    return false;
  }
}
