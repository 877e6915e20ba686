// The trip's websocket (docs/websocket.md): reconnects with backoff, resumes after the last
// sequence number it has seen, and re-sends unacknowledged messages and actions with their
// original client_id so the server applies each exactly once.

const PING_EVERY_MS = 25_000;
const PONG_WITHIN_MS = 10_000;
const MAX_BACKOFF_MS = 10_000;
// Close codes after which reconnecting cannot help.
export const FINAL_CLOSE_CODES = new Set([4401, 4403, 4404]);

export function newClientId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return "c" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class TripSocket extends EventTarget {
  /**
   * @param {string} path  e.g. "/ws/trips/12/"
   * @param {() => number} lastSeq  the highest seq the page holds (resume point)
   */
  constructor(path, lastSeq) {
    super();
    this.path = path;
    this.lastSeq = lastSeq;
    this.outbox = new Map(); // client_id -> frame, until acknowledged
    this.attempt = 0;
    this.ws = null;
    this.stopped = false;
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}${this.path}?after_seq=${this.lastSeq()}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.emit("state", { state: this.attempt ? "reconnecting" : "connecting" });
    ws.addEventListener("open", () => {
      this.attempt = 0;
      this.emit("state", { state: "open" });
      for (const frame of this.outbox.values()) ws.send(JSON.stringify(frame));
      this.startHeartbeat();
    });
    ws.addEventListener("message", (event) => this.onFrame(event.data));
    ws.addEventListener("close", (event) => this.onClose(ws, event));
  }

  onFrame(raw) {
    let frame;
    try {
      frame = JSON.parse(raw);
    } catch {
      return;
    }
    if (frame.type === "pong") {
      clearTimeout(this.pongTimer);
      return;
    }
    if (frame.type === "ack" || (frame.type === "error" && frame.client_id)) {
      this.outbox.delete(frame.client_id);
    }
    this.emit(frame.type, frame);
  }

  onClose(ws, event) {
    if (ws !== this.ws) return;
    this.stopHeartbeat();
    if (this.stopped) return;
    if (FINAL_CLOSE_CODES.has(event.code)) {
      this.stopped = true;
      this.emit("state", { state: "refused", code: event.code });
      return;
    }
    const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempt) * (0.75 + Math.random() / 2);
    this.attempt += 1;
    this.emit("state", { state: "reconnecting", code: event.code, delay });
    setTimeout(() => this.connect(), delay);
  }

  /**
   * Send a message or action. Retained frames are re-sent until the server acknowledges them;
   * a purchase (it carries the token) is not retained: it goes now or not at all.
   * Returns whether the frame went out.
   */
  submit(frame, { retain = true } = {}) {
    if (retain) this.outbox.set(frame.client_id, frame);
    const open = this.ws?.readyState === WebSocket.OPEN;
    if (open) this.ws.send(JSON.stringify(frame));
    return open;
  }

  startHeartbeat() {
    this.stopHeartbeat();
    this.pingTimer = setInterval(() => {
      if (this.ws?.readyState !== WebSocket.OPEN) return;
      this.ws.send(JSON.stringify({ type: "ping" }));
      this.pongTimer = setTimeout(() => this.ws?.close(), PONG_WITHIN_MS);
    }, PING_EVERY_MS);
  }

  stopHeartbeat() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
}
