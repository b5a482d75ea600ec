import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { createAppRouter } from "./app-router.tsx";

const { hrefOf, navigate, useAppLocation, Link } = createAppRouter("/crates");

function Where() {
  const { path, search } = useAppLocation();
  return (
    <p data-testid="where">
      {path}
      {search.toString() ? `?${search.toString()}` : ""}
    </p>
  );
}

afterEach(() => window.history.replaceState(null, "", "/"));

describe("createAppRouter", () => {
  it("puts the mount before an in-app path inside the shell, and nothing on the app's own server", () => {
    window.history.replaceState(null, "", "/crates/search");
    expect(hrefOf("/likes")).toBe("/crates/likes");
    expect(hrefOf("/")).toBe("/crates");
    // "/cratesX" is another page of the shell, not below the mount.
    window.history.replaceState(null, "", "/cratesX");
    expect(hrefOf("/likes")).toBe("/likes");
    window.history.replaceState(null, "", "/");
    expect(hrefOf("/likes")).toBe("/likes");
    expect(hrefOf("/likes", "/crates")).toBe("/crates/likes");
  });

  it("reads the path inside the app, follows its own navigations and the shell's (popstate)", () => {
    window.history.replaceState({ idx: 4 }, "", "/crates/search/?q=hats");
    render(<Where />);
    expect(screen.getByTestId("where").textContent).toBe("/search?q=hats");

    let heard = 0;
    const hear = () => heard++;
    window.addEventListener("popstate", hear);
    act(() => navigate("/likes"));
    window.removeEventListener("popstate", hear);
    expect(window.location.pathname).toBe("/crates/likes");
    // An entry as react-router pushed it (the shell's router counts on the idx), and the shell is told.
    expect((window.history.state as { idx: number }).idx).toBe(5);
    expect(heard).toBe(1);
    expect(screen.getByTestId("where").textContent).toBe("/likes");

    act(() => {
      window.history.pushState(null, "", "/crates");
      window.dispatchEvent(new PopStateEvent("popstate"));
    });
    expect(screen.getByTestId("where").textContent).toBe("/");
  });

  it("links navigate on a plain click and leave a modified click to the browser", () => {
    window.history.replaceState(null, "", "/crates");
    render(<Link to="/uploads">Uploads</Link>);
    const link = screen.getByRole("link", { name: "Uploads" });
    expect(link.getAttribute("href")).toBe("/crates/uploads");
    // What the router left to the browser (seen after it, then stopped: jsdom does not load other documents).
    const leftToBrowser: boolean[] = [];
    const browser = (event: MouseEvent) => {
      leftToBrowser.push(!event.defaultPrevented);
      event.preventDefault();
    };
    document.addEventListener("click", browser);
    fireEvent.click(link, { ctrlKey: true });
    expect(window.location.pathname).toBe("/crates");
    fireEvent.click(link);
    document.removeEventListener("click", browser);
    expect(window.location.pathname).toBe("/crates/uploads");
    expect(leftToBrowser).toEqual([true, false]);
  });
});
