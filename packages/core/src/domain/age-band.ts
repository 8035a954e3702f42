/** Age bands as proto enum value names (the spec leaves their values open). */
export const AgeBand = {
  Unspecified: "AGE_BAND_UNSPECIFIED",
  Under13: "AGE_BAND_UNDER_13",
  From13To17: "AGE_BAND_13_TO_17",
  Adult: "AGE_BAND_18_PLUS",
} as const;
export type AgeBand = (typeof AgeBand)[keyof typeof AgeBand];

export const AGE_BAND_VALUES = [AgeBand.Unspecified, AgeBand.Under13, AgeBand.From13To17, AgeBand.Adult] as const;

/** The number the ASCII digits of `text` from `start` to `end` write, or -1 when one of them is not a digit. */
function digits(text: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Parses `YYYY-MM-DD` into its parts, or null when it is not a real calendar date. */
export function parseBirthdate(text: string): { year: number; month: number; day: number } | null {
  // Read by character codes, not a RegExp: a match makes an array and three strings, and every GetMe reads one.
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return null;
  const year = digits(text, 0, 4), month = digits(text, 5, 7), day = digits(text, 8, 10);
  // Checked by the calendar, not through a Date: a Date costs more than the rest of the rule.
  // Years before 100 stay refused, as through Date.UTC (which reads them as 19xx).
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

function daysInMonth(year: number, month: number): number {
  if (month !== 2) return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

/** Whole years from a birthdate to `now` (UTC). */
export function ageOn(birthdate: { year: number; month: number; day: number }, now: Date): number {
  let age = now.getUTCFullYear() - birthdate.year;
  const beforeBirthday = now.getUTCMonth() + 1 < birthdate.month
    || (now.getUTCMonth() + 1 === birthdate.month && now.getUTCDate() < birthdate.day);
  if (beforeBirthday) age -= 1;
  return age;
}

/** The age band of a birthdate on a given day; guests (no birthdate) are treated as under 13. */
export function ageBandOf(birthdate: string | null, now: Date): AgeBand {
  if (birthdate === null) return AgeBand.Under13;
  const parsed = parseBirthdate(birthdate);
  if (!parsed) return AgeBand.Unspecified;
  const age = ageOn(parsed, now);
  if (age < 13) return AgeBand.Under13;
  if (age < 18) return AgeBand.From13To17;
  return AgeBand.Adult;
}
