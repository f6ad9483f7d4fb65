import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';

// RFC 6238 as authenticator apps expect it: HMAC-SHA-1, 6 digits, 30-second steps.
export const TOTP_ISSUER = 'CareLoop';
export const TOTP_PERIOD_S = 30;
/** Codes of the previous and next step are accepted too (clock drift between phone and server). */
export const TOTP_WINDOW = 1;
const SECRET_BYTES = 20;

function totp(secretBase32: string, label = 'account'): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

/** A new 160-bit secret from node:crypto's CSPRNG, base32-encoded. */
export function newTotpSecret(): string {
  // Copied into a fresh ArrayBuffer: a Buffer's .buffer may be a larger shared pool.
  return new OTPAuth.Secret({ buffer: Uint8Array.from(randomBytes(SECRET_BYTES)).buffer }).base32;
}

export async function setupMaterial(secretBase32: string, email: string) {
  const otpauthUrl = totp(secretBase32, email).toString();
  const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return { qrCode, secret: secretBase32, otpauthUrl };
}

export function timeStep(now: Date): number {
  return Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S);
}

/** The time step the code belongs to (within ±1 of now), or null when it matches none. */
export function matchingStep(secretBase32: string, code: string, now: Date): number | null {
  const delta = totp(secretBase32).validate({ token: code, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? null : timeStep(now) + delta;
}
