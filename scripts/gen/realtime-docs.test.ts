import { realtime } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { renderRealtimeDocs } from "./realtime-docs.js";

const sections = ["close-codes", "client-frames", "server-events"].map((name) => `<!-- generated: ${name} -->\nstale\n<!-- end generated -->`).join("\n\nprose\n\n");

describe("renderRealtimeDocs", () => {
  const text = renderRealtimeDocs(sections);

  it("should list every close code, client frame and server event from the core's schemas", () => {
    for (const code of Object.values(realtime.RealtimeCloseCode)) expect(text).toMatch(new RegExp(`^\\| ${code} \\|`, "m"));
    for (const schema of [...realtime.CLIENT_FRAME_SCHEMAS, ...realtime.SERVER_EVENT_SCHEMAS]) {
      expect(text).toContain(`| \`${schema.shape.type.value}\` |`);
    }
    expect(text).not.toContain("stale");
    expect(text).toContain("\n\nprose\n\n");
  });

  it("should refuse a section it has no table for", () => {
    expect(() => renderRealtimeDocs("<!-- generated: nope -->\n<!-- end generated -->")).toThrow(/no generated section named nope/);
  });
});
