import { isIPv6 } from 'node:net';
import { crc32 } from 'node:zlib';

// The checks a candidate must pass besides its pattern: a checksum where the format has one, so a
// look-alike (a wrong check digit, a random number of the right length) stays as it is. Each takes
// the matched text and returns how many of its characters are the value (0: not one), so a
// pattern may take a little more than the value and the check cut it back (an IBAN followed by a
// word in capitals, a card number followed by a year).

export type Check = (candidate: string) => number;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** The 6 base-62 digits (zero-padded) of a CRC32, as GitHub and npm tokens end. */
export function base62Crc32(text: string): string {
  let value = crc32(text);
  let digits = '';
  while (value > 0) {
    digits = BASE62[value % 62] + digits;
    value = Math.floor(value / 62);
  }
  return digits.padStart(6, '0');
}

/**
 * GitHub's token formats (ghp_, gho_, ghu_, ghs_, ghr_; npm_ is the same scheme): a 4-character
 * prefix, 30 random characters, and the CRC32 of those 30 in 6 base-62 digits
 * (github.blog 2021-04-05 "Behind GitHub's new authentication token formats").
 */
export const githubCrc32: Check = (candidate) => {
  if (candidate.length !== 40) return 0;
  return base62Crc32(candidate.slice(4, 34)) === candidate.slice(34) ? candidate.length : 0;
};

/** Luhn's check digit (ISO/IEC 7812), over the digits of `text`. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * A payment card number: 13–19 digits, single spaces or dashes between groups, Luhn valid. The
 * longest run of the candidate's digits (from its start) that passes is the value. One pass over
 * the candidate, no allocation per try: a run of near-matches costs what scanning it costs.
 */
export const cardNumber: Check = (candidate) => {
  let digits = '';
  const ends: number[] = [];
  for (let i = 0; i < candidate.length && digits.length < 19; i++) {
    if (isDigit(candidate[i])) {
      digits += candidate[i];
      ends.push(i + 1);
    } else if (!isDigit(candidate[i - 1])) break; // two separators in a row: the number ended
  }
  for (let n = digits.length; n >= 13; n--) if (luhnValid(digits.slice(0, n))) return ends[n - 1];
  return 0;
};

/** ISO 13616: move the first four characters to the end, letters to numbers (A = 10), mod 97 = 1. */
export function ibanValid(compact: string): boolean {
  if (compact.length < 15 || compact.length > 34) return false;
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    remainder = value > 9 ? (remainder * 100 + value) % 97 : (remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/**
 * An IBAN, compact or in groups of four: the longest prefix ending at a group's end (the candidate's
 * end or before a space) that passes mod 97.
 */
export const iban: Check = (candidate) => {
  if (candidate.includes('  ')) return 0;
  for (let end = candidate.length; end >= 15; end = candidate.lastIndexOf(' ', end - 1)) {
    if (ibanValid(candidate.slice(0, end).replace(/ /g, ''))) return end;
  }
  return 0;
};

/** E.164 allows at most 15 digits; fewer than 8 is a short code or a number of something else. */
export const phoneNumber: Check = (candidate) => {
  const digits = candidate.replace(/\D/g, '').length;
  return digits >= 8 && digits <= 15 ? candidate.length : 0;
};

/**
 * An IPv6 address: Node's parser decides (the pattern only finds runs of hex digits and colons),
 * with two groups and a digit at least, so `std::` or `dead::beef` in prose stay.
 */
export const ipv6: Check = (candidate) => {
  const groups = candidate.split(':').filter((group) => group !== '').length;
  return groups >= 2 && /[0-9]/.test(candidate) && isIPv6(candidate) ? candidate.length : 0;
};

export const CHECKS: Record<string, Check> = {
  'github-crc32': githubCrc32,
  luhn: cardNumber,
  'iban-mod97': iban,
  'e164-length': phoneNumber,
  ipv6,
};
