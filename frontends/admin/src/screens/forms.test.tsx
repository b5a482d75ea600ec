// The console's create and edit forms: each asks for confirmation, sends what the admin typed (an edit starts from
// the row's values), shows the server's refusal in the dialog, and refreshes the list once done.
import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { fireEvent, screen, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { AvatarService } from "@tt/proto/tt/merch/v1/avatar_service_pb";
import { ConsumableService } from "@tt/proto/tt/merch/v1/consumable_service_pb";
import {
  AvatarSchema,
  ConsumableSchema,
  SeasonSchema,
  TokenBundleSchema,
  type Avatar,
  type Consumable,
  type Season,
  type TokenBundle,
} from "@tt/proto/tt/merch/v1/merch_pb";
import { PointsService } from "@tt/proto/tt/merch/v1/points_service_pb";
import { TokenService } from "@tt/proto/tt/merch/v1/token_service_pb";
import { ProductSchema, type Product } from "@tt/proto/tt/payment/v1/payment_pb";
import { ProductService } from "@tt/proto/tt/payment/v1/product_service_pb";
import { AdminService as RoomAdminService } from "@tt/proto/tt/room/v1/admin_service_pb";
import { CommunitySchema, CommunityService, type Community } from "@tt/proto/tt/room/v1/community_service_pb";
import { EventSchema, EventService, type Event } from "@tt/proto/tt/room/v1/event_service_pb";
import { RoomSchema, type Room } from "@tt/proto/tt/room/v1/room_pb";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import AvatarsScreen from "./AvatarsScreen.tsx";
import CommunitiesScreen from "./CommunitiesScreen.tsx";
import EventsScreen from "./EventsScreen.tsx";
import RoomsScreen from "./RoomsScreen.tsx";
import PaymentsScreen from "./PaymentsScreen.tsx";
import SeasonsScreen from "./SeasonsScreen.tsx";
import ShopScreen from "./ShopScreen.tsx";

let ids = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`;
const page = <T,>(data: T[]) => ({ data, total: data.length, count: data.length, page: 1, pageCount: 1 });

function adminKit(routes: (router: ConnectRouter) => void, search = "") {
  const kit = createTestKit({ routes, search });
  kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: uuid(), email: "root@example.com", role: "admin" });
  return kit;
}

/** Opens the dialog of a button, fills the labelled inputs and confirms; returns the dialog. */
async function submit(
  user: ReturnType<typeof userEvent.setup>,
  button: HTMLElement,
  inputs: Record<string, string> = {},
) {
  await user.click(button);
  const dialog = screen.getByRole("dialog");
  for (const [label, value] of Object.entries(inputs)) {
    const input = within(dialog).getByLabelText(label);
    if (input instanceof HTMLSelectElement) await user.selectOptions(input, value);
    else if (input instanceof HTMLInputElement && input.type === "checkbox") {
      if (input.checked !== (value === "true")) await user.click(input);
    } else if (input instanceof HTMLInputElement && input.type === "datetime-local") {
      // user-event cannot type into a datetime-local input; a change event is what the browser sends.
      fireEvent.change(input, { target: { value } });
    } else {
      await user.clear(input);
      if (value) await user.type(input, value);
    }
  }
  await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
  return dialog;
}

describe("admin create and edit forms", () => {
  it("creates an avatar, refuses a taken slug with the server's message, and edits one from its values", async () => {
    const user = userEvent.setup();
    const avatars: Avatar[] = [create(AvatarSchema, { id: uuid(), slug: "owl", name: "Owl", status: "PUBLIC" })];
    const kit = adminKit((router) =>
      router.service(AvatarService, {
        adminListAvatars: () => page(avatars),
        createAvatar: (req) => {
          if (avatars.some((a) => a.slug === req.slug))
            throw new ConnectError("slug already exists", Code.AlreadyExists);
          const avatar = create(AvatarSchema, {
            id: uuid(),
            slug: req.slug,
            name: req.name,
            status: req.status,
            tokenCost: req.tokenCost,
            discordOnly: req.discordOnly,
          });
          avatars.push(avatar);
          return { avatar };
        },
        updateAvatar: (req) => {
          const avatar = avatars.find((a) => a.slug === req.slug)!;
          Object.assign(avatar, {
            name: req.name ?? avatar.name,
            status: req.status ?? avatar.status,
            tokenCost: req.tokenCost ?? avatar.tokenCost,
            discordOnly: req.discordOnly ?? avatar.discordOnly,
          });
          return { avatar };
        },
      }),
    );
    renderWithKit(<AvatarsScreen />, kit);
    await screen.findByRole("table", { name: "1 Avatars" });

    let dialog = await submit(user, screen.getByRole("button", { name: "Create an avatar" }), {
      Slug: "owl",
      Name: "Another owl",
    });
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Slug already exists");
    // The dialog stays open with the input: the admin corrects it.
    await user.clear(within(dialog).getByLabelText("Slug"));
    await user.type(within(dialog).getByLabelText("Slug"), "gold-owl");
    await user.selectOptions(within(dialog).getByLabelText("Status"), "PUBLIC");
    await user.clear(within(dialog).getByLabelText("Token cost"));
    await user.type(within(dialog).getByLabelText("Token cost"), "40");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    expect((await within(dialog).findByRole("status")).textContent).toBe("Done: Create an avatar.");
    expect(avatars[1]).toMatchObject({ slug: "gold-owl", name: "Another owl", status: "PUBLIC", tokenCost: 40 });
    await user.click(within(dialog).getByRole("button", { name: "Dismiss" }));
    await screen.findByRole("table", { name: "2 Avatars" });

    await user.click(screen.getByRole("button", { name: "Edit", description: "Owl" }));
    dialog = screen.getByRole("dialog");
    expect((within(dialog).getByLabelText("Name") as HTMLInputElement).value).toBe("Owl");
    expect((within(dialog).getByLabelText("Status") as HTMLSelectElement).value).toBe("PUBLIC");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    dialog = await submit(user, screen.getByRole("button", { name: "Edit", description: "Owl" }), {
      "Token cost": "15",
      "Discord only": "true",
    });
    await within(dialog).findByRole("status");
    expect(avatars[0]).toMatchObject({ slug: "owl", name: "Owl", tokenCost: 15, discordOnly: true });
  });

  it("creates a season at the given start and edits its name and start", async () => {
    const user = userEvent.setup();
    const seasons: Season[] = [];
    const kit = adminKit((router) =>
      router.service(PointsService, {
        adminListSeasons: () => page(seasons),
        adminListRankingStatuses: () => page([]),
        createSeason: (req) => {
          if (!req.seasonStart) throw new ConnectError("seasonStart missing in request", Code.InvalidArgument);
          const season = create(SeasonSchema, { id: uuid(), seasonName: req.seasonName, seasonStart: req.seasonStart });
          seasons.push(season);
          return { season };
        },
        updateSeason: (req) => {
          const season = seasons.find((s) => s.id === req.id)!;
          season.seasonName = req.seasonName ?? season.seasonName;
          if (req.seasonStart) season.seasonStart = req.seasonStart;
          return { season };
        },
      }),
    );
    renderWithKit(<SeasonsScreen />, kit);
    await screen.findByRole("table", { name: "0 Seasons" });
    let dialog = await submit(user, screen.getByRole("button", { name: "Create a season" }), {
      Name: "Spring",
      "Season start": "2027-03-01T10:00",
    });
    await within(dialog).findByRole("status");
    expect(seasons[0]?.seasonName).toBe("Spring");
    expect(timestampDate(seasons[0]!.seasonStart!).getTime()).toBe(new Date("2027-03-01T10:00").getTime());
    await user.click(within(dialog).getByRole("button", { name: "Dismiss" }));

    await user.click(await screen.findByRole("button", { name: "Edit", description: "Spring" }));
    dialog = screen.getByRole("dialog");
    expect((within(dialog).getByLabelText("Season start") as HTMLInputElement).value).toBe("2027-03-01T10:00");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    dialog = await submit(user, screen.getByRole("button", { name: "Edit", description: "Spring" }), {
      Name: "Early spring",
      "Season start": "2027-02-15T08:30",
    });
    await within(dialog).findByRole("status");
    expect(seasons[0]?.seasonName).toBe("Early spring");
    expect(timestampDate(seasons[0]!.seasonStart!).getTime()).toBe(new Date("2027-02-15T08:30").getTime());
  });

  it("creates and edits consumables and token bundles", async () => {
    const user = userEvent.setup();
    const consumables: Consumable[] = [];
    const bundles: TokenBundle[] = [
      create(TokenBundleSchema, { id: uuid(), productId: "p1", name: "Pack", tokens: 100 }),
    ];
    const kit = adminKit((router) => {
      router.service(ConsumableService, {
        listConsumables: () => ({ consumables, total: consumables.length }),
        createConsumable: (req) => {
          const consumable = create(ConsumableSchema, { id: uuid(), name: req.name, tokenCost: req.tokenCost });
          consumables.push(consumable);
          return { consumable };
        },
        updateConsumable: (req) => {
          const consumable = consumables.find((c) => c.id === req.id)!;
          consumable.tokenCost = req.tokenCost ?? consumable.tokenCost;
          return { consumable };
        },
      });
      router.service(TokenService, {
        listTokenBundles: () => ({ bundles, total: bundles.length }),
        updateTokenBundle: (req) => {
          if ((req.tokens ?? 1) < 1) throw new ConnectError("tokens must be at least 1", Code.InvalidArgument);
          const bundle = bundles.find((b) => b.id === req.id)!;
          bundle.tokens = req.tokens ?? bundle.tokens;
          return { bundle };
        },
      });
    });
    renderWithKit(<ShopScreen />, kit);
    await screen.findByRole("table", { name: "0 consumables" });
    let dialog = await submit(user, screen.getByRole("button", { name: "Create a consumable" }), {
      Name: "Confetti",
      "Token cost": "5",
    });
    await within(dialog).findByRole("status");
    expect(consumables[0]).toMatchObject({ name: "Confetti", tokenCost: 5 });
    await user.click(within(dialog).getByRole("button", { name: "Dismiss" }));
    dialog = await submit(user, await screen.findByRole("button", { name: "Edit", description: "Confetti" }), {
      "Token cost": "7",
    });
    await within(dialog).findByRole("status");
    expect(consumables[0]?.tokenCost).toBe(7);
    await user.click(within(dialog).getByRole("button", { name: "Dismiss" }));

    dialog = await submit(user, screen.getByRole("button", { name: "Edit", description: "Pack" }), { Tokens: "0" });
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Tokens must be at least 1");
    expect(bundles[0]?.tokens).toBe(100);
  });

  it("creates a product of a payment type and deactivates one", async () => {
    const user = userEvent.setup();
    const products: Product[] = [
      create(ProductSchema, { id: uuid(), name: "Gold", paymentType: "recurring", price: 900, currency: "usd" }),
    ];
    products[0]!.active = true;
    const kit = adminKit((router) => {
      router.service(ProductService, {
        listProducts: () => ({ products, total: products.length }),
        createProduct: (req) => {
          const product = create(ProductSchema, {
            id: uuid(),
            name: req.name,
            paymentType: req.paymentType,
            price: req.price,
            currency: req.currency,
            active: true,
          });
          products.push(product);
          return { product };
        },
        updateProduct: (req) => {
          const product = products.find((p) => p.id === req.id)!;
          product.active = req.active ?? product.active;
          return { product };
        },
      });
    });
    renderWithKit(<PaymentsScreen />, kit);
    await screen.findByRole("table", { name: "1 Products" });
    let dialog = await submit(user, screen.getByRole("button", { name: "Create a product" }), {
      Name: "100 tokens",
      "Price (in cents)": "499",
    });
    await within(dialog).findByRole("status");
    expect(products[1]).toMatchObject({ name: "100 tokens", paymentType: "one_time", price: 499, currency: "usd" });
    await user.click(within(dialog).getByRole("button", { name: "Dismiss" }));
    dialog = await submit(user, screen.getByRole("button", { name: "Edit", description: "Gold" }), { Active: "false" });
    await within(dialog).findByRole("status");
    expect(products[0]?.active).toBe(false);
  });

  it("edits a room's settings, sending a new owner only when it changed", async () => {
    const user = userEvent.setup();
    const owner = uuid();
    const rooms: Room[] = [
      create(RoomSchema, {
        uuid: uuid(),
        slug: "jazz",
        name: "Jazz",
        type: "PUBLIC",
        design: "CLUB",
        djType: "EVERYONE",
        numberOfDjs: 3,
        ownerUuid: owner,
      }),
    ];
    const sent: unknown[] = [];
    const kit = adminKit((router) =>
      router.service(RoomAdminService, {
        adminListRooms: () => page(rooms),
        adminUpdateRoom: (req) => {
          sent.push({ ...req });
          if ((req.numberOfDjs ?? 1) > 10)
            throw new ConnectError("numberOfDjs must be at most 10", Code.InvalidArgument);
          const room = rooms[0]!;
          Object.assign(room, { type: req.type ?? room.type, numberOfDjs: req.numberOfDjs ?? room.numberOfDjs });
          room.promoted = req.promoted ?? room.promoted;
          return { room };
        },
      }),
    );
    renderWithKit(<RoomsScreen />, kit);
    await screen.findByRole("table", { name: "1 Rooms" });
    const dialog = await submit(user, screen.getByRole("button", { name: "Edit", description: "Jazz" }), {
      Type: "PRIVATE",
      DJs: "12",
      Promoted: "true",
    });
    expect((await within(dialog).findByRole("alert")).textContent).toBe("NumberOfDjs must be at most 10");
    await user.clear(within(dialog).getByLabelText("DJs"));
    await user.type(within(dialog).getByLabelText("DJs"), "5");
    await user.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await within(dialog).findByRole("status");
    expect(rooms[0]).toMatchObject({ type: "PRIVATE", numberOfDjs: 5, promoted: true });
    // The owner did not change, so no new owner was sent.
    expect(sent.every((req) => (req as { ownerUuid?: string }).ownerUuid === undefined)).toBe(true);
  });

  it("creates a community with a slug made from its name, and edits its description", async () => {
    const user = userEvent.setup();
    const communities: Community[] = [];
    const kit = adminKit((router) =>
      router.service(CommunityService, {
        adminListCommunities: () => page(communities),
        adminCreateCommunity: (req) => {
          const community = create(CommunitySchema, { id: uuid(), name: req.name, slug: req.slug });
          communities.push(community);
          return { community };
        },
        adminUpdateCommunity: (req) => {
          const community = communities.find((c) => c.id === req.id)!;
          community.description = req.description ?? community.description;
          return { community };
        },
      }),
    );
    renderWithKit(<CommunitiesScreen />, kit);
    await screen.findByRole("table", { name: "0 Communities" });
    let dialog = await submit(user, screen.getByRole("button", { name: "Create a community" }), {
      Name: "Jazz Lovers",
    });
    await within(dialog).findByRole("status");
    expect(communities[0]).toMatchObject({ name: "Jazz Lovers", slug: "jazz-lovers" });
    await user.click(within(dialog).getByRole("button", { name: "Dismiss" }));
    dialog = await submit(user, await screen.findByRole("button", { name: "Edit", description: "Jazz Lovers" }), {
      Description: "Late sets",
    });
    await within(dialog).findByRole("status");
    expect(communities[0]?.description).toBe("Late sets");
  });

  it("creates an event with its start and end, and moves it", async () => {
    const user = userEvent.setup();
    const events: Event[] = [];
    const kit = adminKit((router) =>
      router.service(EventService, {
        adminListEvents: () => page(events),
        createEvent: (req) => {
          if (!req.startsAt || !req.endsAt) throw new ConnectError("startsAt missing in request", Code.InvalidArgument);
          const event = create(EventSchema, {
            id: uuid(),
            name: req.name,
            slug: req.slug || "friday",
            startsAt: req.startsAt,
            endsAt: req.endsAt,
          });
          events.push(event);
          return { event };
        },
        updateEvent: (req) => {
          const event = events.find((e) => e.id === req.id)!;
          if (req.startsAt) event.startsAt = req.startsAt;
          return { event };
        },
      }),
    );
    renderWithKit(<EventsScreen />, kit);
    await screen.findByRole("table", { name: "0 Events" });
    let dialog = await submit(user, screen.getByRole("button", { name: "Create an event" }), {
      Name: "Friday set",
      Starts: "2027-01-08T21:00",
      Ends: "2027-01-08T23:00",
    });
    await within(dialog).findByRole("status");
    expect(timestampDate(events[0]!.endsAt!).getTime()).toBe(new Date("2027-01-08T23:00").getTime());
    await user.click(within(dialog).getByRole("button", { name: "Dismiss" }));
    dialog = await submit(user, await screen.findByRole("button", { name: "Edit", description: "Friday set" }), {
      Starts: "2027-01-08T22:00",
    });
    await within(dialog).findByRole("status");
    expect(timestampDate(events[0]!.startsAt!).getTime()).toBe(new Date("2027-01-08T22:00").getTime());
  });

  it("speaks Spanish in the forms", async () => {
    const user = userEvent.setup();
    const kit = adminKit((router) => router.service(AvatarService, { adminListAvatars: () => page([]) }), "?lang=es");
    renderWithKit(<AvatarsScreen />, kit);
    await user.click(await screen.findByRole("button", { name: "Crear un avatar" }));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByText("¿Crear este avatar?")).toBeTruthy();
    expect(within(dialog).getByLabelText("Solo Discord")).toBeTruthy();
  });
});
