// Display formats, the same as the server's (handlers/common/formats.py): money by locale with
// its currency, durations in words ("4 h 5 min"), times labelled with their zone. Flight times
// are the airport's own local time, exactly as the supplier states them, so they are read from
// the ISO string (never the browser's zone) and labelled with the zone the server names.

const LOCALE = document.documentElement.lang || "en-US";
// The trip's zone (its TripIntent's request.timezone): deadlines and message times are read there,
// exactly as the assistant's words state them, never in whatever zone the browser happens to be in.
let ZONE;

export function setZone(zone) {
  try {
    new Intl.DateTimeFormat(LOCALE, { timeZone: zone });
    ZONE = zone;
  } catch {
    ZONE = undefined;
  }
}

export function money(amount, currency) {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount ?? ""} ${currency ?? ""}`.trim();
  try {
    return new Intl.NumberFormat(LOCALE, { style: "currency", currency: currency || "USD" }).format(value);
  } catch {
    return `${value.toFixed(2)} ${currency}`;
  }
}

/** "9:46 AM EST": a flight time as stated at its airport (the ISO string's own clock), labelled. */
export function localClock(iso, zone = "") {
  const match = /T(\d{2}):(\d{2})/.exec(iso || "");
  if (!match) return "";
  const hours = Number(match[1]);
  const clock = `${hours % 12 || 12}:${match[2]} ${hours < 12 ? "AM" : "PM"}`;
  return zone ? `${clock} ${zone}` : clock;
}

export function localDate(iso) {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso || "");
  if (!match) return "";
  const day = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
  return day.toLocaleDateString(LOCALE, { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
}

/** "+1" when a flight lands on a later calendar day than it left (both in local time). */
export function dayShift(departIso, arriveIso) {
  const a = Date.parse((departIso || "").slice(0, 10));
  const b = Date.parse((arriveIso || "").slice(0, 10));
  const days = Math.round((b - a) / 86_400_000);
  return Number.isFinite(days) && days > 0 ? `+${days}` : "";
}

/** "4 h", "4 h 5 min", "45 min": as the chat's words say durations. */
export function duration(minutes) {
  const total = Math.round(Number(minutes));
  if (!Number.isFinite(total) || total <= 0) return "";
  const hours = Math.floor(total / 60);
  const mins = total % 60;
  if (!hours) return `${mins} min`;
  return mins ? `${hours} h ${mins} min` : `${hours} h`;
}

export function stops(count) {
  const n = Number(count) || 0;
  return n === 0 ? "Nonstop" : n === 1 ? "1 stop" : `${n} stops`;
}

export function nights(count) {
  const n = Number(count) || 0;
  return n === 1 ? "1 night" : `${n} nights`;
}

/** "Tue Nov 24, 5:17 PM EST": an instant in the trip's zone, written exactly as the server writes it
 * (``handlers.common.clock.local_time_text``), so a card and the words beside it read alike. */
export function dateTime(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  const parts = Object.fromEntries(new Intl.DateTimeFormat("en-US", {
    weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", hour12: true, timeZoneName: "short", timeZone: ZONE,
  }).formatToParts(at).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${parts.month} ${parts.day}, ${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
}

export function shortTime(iso) {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return "";
  return at.toLocaleTimeString(LOCALE, { hour: "numeric", minute: "2-digit", timeZoneName: "short", timeZone: ZONE });
}

/** "2d 4h", "1h 04m", "3m 09s" — precise enough to act on, short enough to scan. */
export function remaining(ms) {
  if (ms <= 0) return "expired";
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const hr = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const pad = (v) => String(v).padStart(2, "0");
  if (d) return `${d}d ${hr}h`;
  if (hr) return `${hr}h ${pad(m)}m`;
  return `${m}m ${pad(sec)}s`;
}

export function humanize(value) {
  const text = String(value ?? "").replaceAll("_", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "4 adults", "1 adult, 2 children": who a total covers ("" when nobody is known). */
export function party(travelers) {
  const t = travelers || {};
  const words = { adults: ["adult", "adults"], children: ["child", "children"], infants: ["infant", "infants"] };
  return Object.entries(words)
    .filter(([key]) => Number(t[key]) > 0)
    .map(([key, [one, many]]) => `${t[key]} ${Number(t[key]) === 1 ? one : many}`)
    .join(", ");
}
