import type { MethodInput, schemas, Services } from "@playfield/core";
import type { z } from "zod";
import { describe, expectTypeOf, it } from "vitest";
import { createClient, type CallOptions, type PlayfieldError } from "../src/index.js";

// Type tests: tsc checks them (`npx tsc -p tsconfig.json --noEmit`); the calls
// sit in functions that never run.
const client = createClient({ baseUrl: "https://api.playfield.test" });

describe("PlayfieldClient types", () => {
  it("should type answers as the output schemas", () => {
    expectTypeOf(client.identity.getMe).returns.resolves.toEqualTypeOf<z.output<typeof schemas.Me>>();
    expectTypeOf(client.identity.signIn).returns.resolves.toEqualTypeOf<z.output<typeof schemas.AuthResponse>>();
    expectTypeOf<Awaited<ReturnType<typeof client.identity.signIn>>["expiresInSeconds"]>().toEqualTypeOf<number>();
  });

  it("should type requests as the input schemas, with defaulted fields optional", () => {
    expectTypeOf(client.identity.signIn).parameter(0).toEqualTypeOf<MethodInput<Services["identity"]["methods"]["signIn"]> | undefined>();
    expectTypeOf(client.identity.getMe).parameter(1).toEqualTypeOf<CallOptions | undefined>();
    expectTypeOf<{ username: string }>().toExtend<MethodInput<Services["identity"]["methods"]["signIn"]>>();
  });

  it("should have one property per service, and auth", () => {
    expectTypeOf<keyof typeof client>().toEqualTypeOf<keyof Services | "auth">();
  });

  it("should reject wrong fields, wrong types and unknown methods", () => {
    const never = () => {
      void client.identity.getMe();
      void client.identity.signIn({ username: "ada", password: "pw" });
      // @ts-expect-error: no such field
      void client.identity.signIn({ usernam: "ada" });
      // @ts-expect-error: username is a string
      void client.identity.signIn({ username: 5 });
      // @ts-expect-error: no such method
      void client.identity.signInWithMagic();
      // @ts-expect-error: no such option
      void client.identity.getMe({}, { retries: 3 });
    };
    expectTypeOf(never).toBeFunction();
    expectTypeOf<PlayfieldError["code"]>().toEqualTypeOf<"invalid_argument" | "failed_precondition" | "unauthenticated" | "permission_denied" | "not_found" | "already_exists" | "resource_exhausted" | "internal" | "unimplemented" | "unavailable" | "deadline_exceeded" | "canceled">();
  });
});
