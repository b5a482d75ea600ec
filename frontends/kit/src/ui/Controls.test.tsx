import { screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { renderWithKit } from "@tt/web-kit/testing";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Slider, Switch, Tab, TabList, TabPanel, Tabs } from "./Controls.tsx";

function ChatTabs({ unread }: { unread: number }) {
  return (
    <Tabs defaultValue="chat">
      <TabList label="Room panels">
        <Tab value="chat" count={unread}>
          Chat
        </Tab>
        <Tab value="queue" count={0}>
          Queue
        </Tab>
        <Tab value="people" count={150}>
          People
        </Tab>
      </TabList>
      <TabPanel value="chat">The chat</TabPanel>
      <TabPanel value="queue">The queue</TabPanel>
      <TabPanel value="people">The people</TabPanel>
    </Tabs>
  );
}

/** A panel with its own state, to tell a kept panel from a remounted one. */
function Draft() {
  const [text, setText] = useState("");
  return <input aria-label="Draft" value={text} onChange={(event) => setText(event.target.value)} />;
}

describe("Tabs", () => {
  it("keeps a keepMounted panel, and what it holds, while another tab shows", async () => {
    const user = userEvent.setup();
    renderWithKit(
      <Tabs defaultValue="chat">
        <TabList label="Room panels">
          <Tab value="chat">Chat</Tab>
          <Tab value="queue">Queue</Tab>
        </TabList>
        <TabPanel value="chat" keepMounted>
          <Draft />
        </TabPanel>
        <TabPanel value="queue">The queue</TabPanel>
      </Tabs>,
    );
    await user.type(screen.getByLabelText("Draft"), "hello");
    await user.click(screen.getByRole("tab", { name: "Queue" }));
    await waitFor(() => expect(screen.getByText("The queue")).toBeTruthy());
    // Still in the page, marked inactive (the kit's sheet hides it), its state kept.
    const draft = screen.getByLabelText<HTMLInputElement>("Draft");
    expect(draft.closest("[role=tabpanel]")?.getAttribute("data-state")).toBe("inactive");
    await user.click(screen.getByRole("tab", { name: "Chat" }));
    await waitFor(() => expect(screen.queryByText("The queue")).toBeNull());
    expect(screen.getByLabelText<HTMLInputElement>("Draft").value).toBe("hello");
  });

  it("shows the chosen tab's panel, and arrow keys move between tabs (and round)", async () => {
    const user = userEvent.setup();
    renderWithKit(<ChatTabs unread={3} />);
    expect(screen.getByRole("tablist", { name: "Room panels" })).toBeTruthy();
    const chat = screen.getByRole("tab", { name: /^Chat/ });
    expect(chat.getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tabpanel").textContent).toBe("The chat");
    chat.focus();
    await user.keyboard("{ArrowRight}");
    const queue = screen.getByRole("tab", { name: "Queue" });
    expect(document.activeElement).toBe(queue);
    await waitFor(() => expect(queue.getAttribute("aria-selected")).toBe("true"));
    expect(screen.getByRole("tabpanel").textContent).toBe("The queue");
    await user.keyboard("{ArrowRight}{ArrowRight}");
    expect(document.activeElement).toBe(chat);
    await user.keyboard("{ArrowLeft}");
    expect(document.activeElement?.textContent).toMatch(/^People/);
  });

  it("shows a count badge beside a tab's label: none for 0, 99+ beyond 99", () => {
    renderWithKit(<ChatTabs unread={3} />);
    const badge = (name: RegExp) => screen.getByRole("tab", { name }).querySelector(".tt-tabs__count")?.textContent;
    expect(badge(/^Chat/)).toBe("3");
    expect(badge(/^Queue/)).toBeUndefined();
    expect(badge(/^People/)).toBe("99+");
  });

  it("reports the chosen tab when controlled", async () => {
    const user = userEvent.setup();
    const onValueChange = vi.fn();
    renderWithKit(
      <Tabs value="a" onValueChange={onValueChange}>
        <TabList label="Sections">
          <Tab value="a">A</Tab>
          <Tab value="b">B</Tab>
        </TabList>
        <TabPanel value="a">Panel A</TabPanel>
        <TabPanel value="b">Panel B</TabPanel>
      </Tabs>,
    );
    await user.click(screen.getByRole("tab", { name: "B" }));
    expect(onValueChange).toHaveBeenCalledWith("b");
  });
});

describe("Switch", () => {
  function Setting() {
    const [on, setOn] = useState(false);
    return <Switch label="Live audio" checked={on} onCheckedChange={setOn} />;
  }

  it("is a labelled switch that toggles with a click, its label and Space", async () => {
    const user = userEvent.setup();
    renderWithKit(<Setting />);
    const control = screen.getByRole("switch", { name: "Live audio" });
    expect(control.getAttribute("aria-checked")).toBe("false");
    await user.click(control);
    expect(control.getAttribute("aria-checked")).toBe("true");
    await user.click(screen.getByText("Live audio"));
    expect(control.getAttribute("aria-checked")).toBe("false");
    control.focus();
    await user.keyboard(" ");
    expect(control.getAttribute("aria-checked")).toBe("true");
  });

  it("does nothing when disabled", async () => {
    const user = userEvent.setup();
    const onCheckedChange = vi.fn();
    renderWithKit(<Switch label="Live audio" checked={false} onCheckedChange={onCheckedChange} disabled />);
    await user.click(screen.getByRole("switch", { name: "Live audio" }));
    expect(onCheckedChange).not.toHaveBeenCalled();
  });
});

describe("Slider", () => {
  function Volume() {
    const [volume, setVolume] = useState(40);
    return <Slider label="Volume" value={volume} onValueChange={setVolume} step={10} valueText={`${volume} %`} />;
  }

  it("steps with the arrow keys, jumps to the ends with Home and End, and reads its value as words", async () => {
    const user = userEvent.setup();
    renderWithKit(<Volume />);
    const thumb = screen.getByRole("slider", { name: "Volume" });
    expect(thumb.getAttribute("aria-valuenow")).toBe("40");
    expect(thumb.getAttribute("aria-valuetext")).toBe("40 %");
    thumb.focus();
    await user.keyboard("{ArrowRight}");
    expect(thumb.getAttribute("aria-valuenow")).toBe("50");
    await user.keyboard("{ArrowLeft}{ArrowLeft}");
    expect(thumb.getAttribute("aria-valuenow")).toBe("30");
    expect(thumb.getAttribute("aria-valuetext")).toBe("30 %");
    await user.keyboard("{End}");
    expect(thumb.getAttribute("aria-valuenow")).toBe("100");
    await user.keyboard("{Home}");
    expect(thumb.getAttribute("aria-valuenow")).toBe("0");
  });
});
