import type { MediaElement } from "./types.ts";

/** A media element for unit tests: jsdom's does not play, seek or report playback. */
export class FakeMedia extends EventTarget implements MediaElement {
  currentTime = 0;
  playbackRate = 1;
  src = "";
  duration = Number.NaN;
  paused = true;
  nativeHls = false;
  playRefused = false;
  plays = 0;
  loads = 0;

  play(): Promise<void> {
    this.plays += 1;
    if (this.playRefused) return Promise.reject(new DOMException("autoplay refused", "NotAllowedError"));
    this.paused = false;
    this.dispatchEvent(new Event("playing"));
    return Promise.resolve();
  }
  pause(): void {
    if (!this.paused) {
      this.paused = true;
      this.dispatchEvent(new Event("pause"));
    }
  }
  load(): void {
    this.loads += 1;
  }
  canPlayType(type: string): CanPlayTypeResult {
    return this.nativeHls && type === "application/vnd.apple.mpegurl" ? "maybe" : "";
  }
  removeAttribute(name: string): void {
    if (name === "src") this.src = "";
  }
  /** The element learnt the media's duration. */
  loadMetadata(duration: number): void {
    this.duration = duration;
    this.dispatchEvent(new Event("loadedmetadata"));
  }
}
