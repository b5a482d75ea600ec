// The console's create and edit forms: each is a kit dialog that sends what the admin typed (an edit starts from
// the row's values), shows the server's refusal on the field it names (or above the form), and once done closes,
// says so in a toast and refreshes the list.
import { create } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
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
import { AdminService as UserAdminService } from "@tt/proto/tt/user/v1/admin_service_pb";
import { ProfileService } from "@tt/proto/tt/user/v1/profile_service_pb";
import { createTestKit, renderWithKit } from "@tt/web-kit/testing";
import { describe, expect, it } from "vitest";
import AvatarsScreen from "./AvatarsScreen.tsx";
import CommunitiesScreen from "./CommunitiesScreen.tsx";
import EventsScreen from "./EventsScreen.tsx";
import RoomsScreen from "./RoomsScreen.tsx";
import PaymentsScreen from "./PaymentsScreen.tsx";
import SeasonsScreen from "./SeasonsScreen.tsx";
import ShopScreen from "./ShopScreen.tsx";
import { lastToast, pick, rowAction } from "../test-helpers.ts";

let ids = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`;
const page = <T,>(data: T[]) => ({ data, total: data.length, count: data.length, page: 1, pageCount: 1 });

function adminKit(routes: (router: ConnectRouter) => void, search = "") {
  const kit = createTestKit({ routes, search });
  kit.session.signIn({ token: "t", tokenType: "user" }, { uuid: uuid(), email: "root@example.com", role: "admin" });
  return kit;
}

type User = ReturnType<typeof userEvent.setup>;

/** Fills the labelled inputs of the open dialog: text typed, pickers picked (by the words shown), boxes ticked. */
async function fill(user: User, dialog: HTMLElement, inputs: Record<string, string>) {
  for (const [label, value] of Object.entries(inputs)) {
    const input = within(dialog).getByLabelText(label);
    if (input.getAttribute("role") === "combobox") await pick(user, label, value, dialog);
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
}

/** Opens a dialog (a list action's button, or "row|action" from a row's menu), fills it and sends it. */
async function submit(user: User, open: HTMLElement | string, inputs: Record<string, string>, send: string) {
  if (typeof open === "string") {
    const [row, action] = open.split("|") as [string, string];
    await rowAction(user, row, action);
  } else {
    await user.click(open);
  }
  const dialog = await screen.findByRole("dialog");
  await fill(user, dialog, inputs);
  await user.click(within(dialog).getByRole("button", { name: send }));
  return dialog;
}

/** The dialog closed after success, with its toast. */
async function closedWith(toast: string) {
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  expect(lastToast()).toBe(toast);
}

// Each journey drives several dialogs; on a loaded two-core machine that takes longer than the default 30 s.
describe("admin create and edit forms", { timeout: 90_000 }, () => {
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

    const dialog = await submit(
      user,
      screen.getByRole("button", { name: "Create an avatar" }),
      { Slug: "owl", Name: "Another owl" },
      "Create",
    );
    // The server's refusal names the slug: it shows on that field, and the dialog stays open for the correction.
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Slug already exists");
    expect(within(dialog).getByLabelText("Slug").getAttribute("aria-invalid")).toBe("true");
    await fill(user, dialog, { Slug: "gold-owl", Status: "Public", "Token cost": "40" });
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    await closedWith("Done: Create an avatar");
    expect(avatars[1]).toMatchObject({ slug: "gold-owl", name: "Another owl", status: "PUBLIC", tokenCost: 40 });
    await screen.findByRole("table", { name: "2 Avatars" });

    await rowAction(user, "Owl", "Edit");
    const edit = await screen.findByRole("dialog", { name: "Edit Owl" });
    expect((within(edit).getByLabelText("Name") as HTMLInputElement).value).toBe("Owl");
    expect(within(edit).getByLabelText("Status").textContent).toBe("Public");
    await user.click(within(edit).getByRole("button", { name: "Cancel" }));
    await submit(user, "Owl|Edit", { "Token cost": "15", "Discord only": "true" }, "Save changes");
    await closedWith("Done: Edit · Owl");
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
    // No season yet: the empty state offers to create one.
    await screen.findByRole("heading", { name: "No seasons yet" });
    await submit(
      user,
      screen.getAllByRole("button", { name: "Create a season" })[0]!,
      { Name: "Spring", "Season start": "2027-03-01T10:00" },
      "Create",
    );
    await closedWith("Done: Create a season");
    expect(seasons[0]?.seasonName).toBe("Spring");
    expect(timestampDate(seasons[0]!.seasonStart!).getTime()).toBe(new Date("2027-03-01T10:00").getTime());

    await screen.findByRole("table", { name: "1 Seasons" });
    await rowAction(user, "Spring", "Edit");
    const dialog = await screen.findByRole("dialog", { name: "Edit Spring" });
    expect((within(dialog).getByLabelText("Season start") as HTMLInputElement).value).toBe("2027-03-01T10:00");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await submit(user, "Spring|Edit", { Name: "Early spring", "Season start": "2027-02-15T08:30" }, "Save changes");
    await closedWith("Done: Edit · Spring");
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
    await screen.findByRole("heading", { name: "No consumables yet" });
    await submit(
      user,
      screen.getAllByRole("button", { name: "Create a consumable" })[0]!,
      { Name: "Confetti", "Token cost": "5" },
      "Create",
    );
    await closedWith("Done: Create a consumable");
    expect(consumables[0]).toMatchObject({ name: "Confetti", tokenCost: 5 });
    await screen.findByRole("table", { name: "1 Consumables" });
    await submit(user, "Confetti|Edit", { "Token cost": "7" }, "Save changes");
    await closedWith("Done: Edit · Confetti");
    expect(consumables[0]?.tokenCost).toBe(7);

    const dialog = await submit(user, "Pack|Edit", { Tokens: "0" }, "Save changes");
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Tokens must be at least 1");
    expect(bundles[0]?.tokens).toBe(100);
  });

  it("sends the image chosen on the avatar, consumable and token bundle forms, and keeps the current one otherwise", async () => {
    const user = userEvent.setup();
    const png = () => new File([new Uint8Array([137, 80, 78, 71])], "owl.png", { type: "image/png" });
    const sent: Record<string, unknown> = {};
    const avatars: Avatar[] = [
      create(AvatarSchema, { id: uuid(), slug: "owl", name: "Owl", status: "PUBLIC", imageUrl: "/img/owl.png" }),
    ];
    const consumables: Consumable[] = [];
    const bundles: TokenBundle[] = [
      create(TokenBundleSchema, { id: uuid(), productId: "p1", name: "Pack", tokens: 100, thumbnailUrl: "/img/p.png" }),
    ];
    const upload = (file?: { content: Uint8Array; filename: string; contentType: string }) =>
      file && { bytes: [...file.content], filename: file.filename, contentType: file.contentType };
    const kit = adminKit((router) => {
      router.service(AvatarService, {
        adminListAvatars: () => page(avatars),
        createAvatar: (req) => {
          sent["createAvatar"] = upload(req.image);
          return { avatar: create(AvatarSchema, { id: uuid(), slug: req.slug }) };
        },
        updateAvatar: (req) => {
          sent[`updateAvatar ${req.name}`] = upload(req.image) ?? "no image";
          return { avatar: avatars[0]! };
        },
      });
      router.service(ConsumableService, {
        listConsumables: () => ({ consumables, total: consumables.length }),
        uploadConsumableFile: (req) => {
          sent["uploadConsumableFile"] = upload(req.file);
          return { file: { fileId: "f1", url: "/files/f1.png" } };
        },
        createConsumable: (req) => {
          const consumable = create(ConsumableSchema, {
            id: uuid(),
            name: req.name,
            fileId: req.fileId,
            fileUrl: req.fileId === "f1" ? "/files/f1.png" : "",
          });
          consumables.push(consumable);
          return { consumable };
        },
      });
      router.service(TokenService, {
        listTokenBundles: () => ({ bundles, total: bundles.length }),
        updateTokenBundle: (req) => ({ bundle: bundles.find((b) => b.id === req.id)! }),
        updateTokenBundleThumbnail: (req) => {
          sent["updateTokenBundleThumbnail"] = upload(req.thumbnail);
          return { bundle: bundles[0]! };
        },
      });
    });
    const image = { bytes: [137, 80, 78, 71], filename: "owl.png", contentType: "image/png" };
    const { unmount } = renderWithKit(<AvatarsScreen />, kit);
    await screen.findByRole("table", { name: "1 Avatars" });
    await user.click(screen.getByRole("button", { name: "Create an avatar" }));
    let dialog = await screen.findByRole("dialog");
    await fill(user, dialog, { Slug: "gold-owl" });
    await user.upload(within(dialog).getByLabelText("Image"), png());
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    await closedWith("Done: Create an avatar");
    expect(sent["createAvatar"]).toEqual(image);
    // An edit shows the current image; saved without choosing another, it sends none (the image stays).
    await rowAction(user, "Owl", "Edit");
    dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByRole("img", { name: "The image" }).getAttribute("src")).toBe("/img/owl.png");
    await fill(user, dialog, { Name: "Same owl" });
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await closedWith("Done: Edit · Owl");
    expect(sent["updateAvatar Same owl"]).toBe("no image");
    await rowAction(user, "Owl", "Edit");
    dialog = await screen.findByRole("dialog");
    await fill(user, dialog, { Name: "New owl" });
    await user.upload(within(dialog).getByLabelText("Image"), png());
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await closedWith("Done: Edit · Owl");
    expect(sent["updateAvatar New owl"]).toEqual(image);
    unmount();

    renderWithKit(<ShopScreen />, kit);
    await screen.findByRole("heading", { name: "No consumables yet" });
    await user.click(screen.getAllByRole("button", { name: "Create a consumable" })[0]!);
    dialog = await screen.findByRole("dialog");
    await fill(user, dialog, { Name: "Confetti" });
    await user.upload(within(dialog).getByLabelText("Image"), png());
    await user.click(within(dialog).getByRole("button", { name: "Create" }));
    await closedWith("Done: Create a consumable");
    // The file goes up first; the consumable names it, and its row shows it.
    expect(sent["uploadConsumableFile"]).toEqual(image);
    expect(consumables[0]?.fileId).toBe("f1");
    const table = await screen.findByRole("table", { name: "1 Consumables" });
    await waitFor(() => expect(table.querySelector("img")?.getAttribute("src")).toBe("/files/f1.png"));

    await rowAction(user, "Pack", "Edit");
    dialog = await screen.findByRole("dialog");
    await user.upload(within(dialog).getByLabelText("Image"), png());
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await closedWith("Done: Edit · Pack");
    expect(sent["updateTokenBundleThumbnail"]).toEqual(image);
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
    // Prices are typed as amounts ("4.99") and sent in cents; the payment type is picked, "One-time" at first.
    const dialog = await submit(
      user,
      screen.getByRole("button", { name: "Create a product" }),
      { Name: "100 tokens", Price: "4.9x" },
      "Create product",
    );
    expect((await within(dialog).findByRole("alert")).textContent).toBe("An amount, like 4.99");
    expect(within(dialog).getByLabelText("Type").textContent).toBe("One-time");
    await fill(user, dialog, { Price: "4.99" });
    await user.click(within(dialog).getByRole("button", { name: "Create product" }));
    await closedWith("Done: Create a product");
    expect(products[1]).toMatchObject({ name: "100 tokens", paymentType: "one_time", price: 499, currency: "usd" });
    await rowAction(user, "Gold", "Edit");
    const edit = await screen.findByRole("dialog", { name: "Edit Gold" });
    expect((within(edit).getByLabelText("Price") as HTMLInputElement).value).toBe("9.00");
    await fill(user, edit, { Active: "false" });
    await user.click(within(edit).getByRole("button", { name: "Save changes" }));
    await closedWith("Done: Edit · Gold");
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
    // Type, design and who may DJ are picked by their words.
    await rowAction(user, "Jazz", "Edit");
    let dialog = await screen.findByRole("dialog", { name: "Edit Jazz" });
    expect(within(dialog).getByLabelText("Design").textContent).toBe("Club");
    expect(within(dialog).getByLabelText("Who can DJ").textContent).toBe("Everyone");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    dialog = await submit(user, "Jazz|Edit", { Type: "Private", DJs: "12", Promoted: "true" }, "Save changes");
    // The server names the field: its message shows on DJs.
    expect((await within(dialog).findByRole("alert")).textContent).toBe("NumberOfDjs must be at most 10");
    expect(within(dialog).getByLabelText("DJs").getAttribute("aria-invalid")).toBe("true");
    await fill(user, dialog, { DJs: "5" });
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await closedWith("Done: Edit · Jazz");
    expect(rooms[0]).toMatchObject({ type: "PRIVATE", numberOfDjs: 5, promoted: true });
    // The owner did not change, so no new owner was sent.
    expect(sent.every((req) => (req as { ownerUuid?: string }).ownerUuid === undefined)).toBe(true);
  });

  it("hands a room to a new owner found by nickname or e-mail, never by a typed uuid", async () => {
    const user = userEvent.setup();
    const owner = uuid();
    const next = uuid();
    const people: Record<string, [nickname: string, email: string]> = {
      [owner]: ["Olivia", "olivia@example.com"],
      [next]: ["Nina", "nina@example.com"],
    };
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
    const sent: (string | undefined)[] = [];
    const kit = adminKit((router) => {
      router.service(RoomAdminService, {
        adminListRooms: () => page(rooms),
        adminUpdateRoom: (req) => {
          sent.push(req.ownerUuid);
          return { room: rooms[0]! };
        },
      });
      router.service(UserAdminService, {
        adminListUsers: ({ query }) => {
          const [field, , words = ""] = query!.filter[0]!.split("||");
          const found = Object.entries(people).filter(([, [nickname, email]]) =>
            (field === "nickname" ? nickname : email).toLowerCase().includes(words.toLowerCase()),
          );
          return page(found.map(([uuid, [, email]]) => ({ uuid, email })));
        },
      });
      router.service(ProfileService, {
        getProfiles: ({ users }) => ({ profiles: users.map((uuid) => ({ uuid, nickname: people[uuid]![0] })) }),
      });
    });
    renderWithKit(<RoomsScreen />, kit);
    await screen.findByRole("table", { name: "1 Rooms" });
    await rowAction(user, "Jazz", "Edit");
    const dialog = await screen.findByRole("dialog", { name: "Edit Jazz" });
    const picker = within(dialog).getByLabelText<HTMLInputElement>("Owner");
    // The current owner shows by nickname.
    await waitFor(() => expect(picker.value).toBe("Olivia"));
    await user.clear(picker);
    await user.type(picker, "nina@");
    await user.click(await screen.findByRole("option", { name: /Nina · nina@example\.com/ }));
    expect(picker.value).toBe("Nina · nina@example.com");
    await user.click(within(dialog).getByRole("button", { name: "Save changes" }));
    await closedWith("Done: Edit · Jazz");
    expect(sent).toEqual([next]);
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
    await screen.findByRole("heading", { name: "No communities yet" });
    await submit(
      user,
      screen.getAllByRole("button", { name: "Create a community" })[0]!,
      { Name: "Jazz Lovers" },
      "Create",
    );
    await closedWith("Done: Create a community");
    expect(communities[0]).toMatchObject({ name: "Jazz Lovers", slug: "jazz-lovers" });
    await screen.findByRole("table", { name: "1 Communities" });
    await submit(user, "Jazz Lovers|Edit", { Description: "Late sets" }, "Save changes");
    await closedWith("Done: Edit · Jazz Lovers");
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
    await screen.findByRole("heading", { name: "No events yet" });
    await submit(
      user,
      screen.getAllByRole("button", { name: "Create an event" })[0]!,
      { Name: "Friday set", Starts: "2027-01-08T21:00", Ends: "2027-01-08T23:00" },
      "Create",
    );
    await closedWith("Done: Create an event");
    expect(timestampDate(events[0]!.endsAt!).getTime()).toBe(new Date("2027-01-08T23:00").getTime());
    await screen.findByRole("table", { name: "1 Events" });
    await submit(user, "Friday set|Edit", { Starts: "2027-01-08T22:00" }, "Save changes");
    await closedWith("Done: Edit · Friday set");
    expect(timestampDate(events[0]!.startsAt!).getTime()).toBe(new Date("2027-01-08T22:00").getTime());
  });

  it("speaks Spanish in the forms", async () => {
    const user = userEvent.setup();
    const kit = adminKit((router) => router.service(AvatarService, { adminListAvatars: () => page([]) }), "?lang=es");
    renderWithKit(<AvatarsScreen />, kit);
    await screen.findByRole("heading", { name: "Aún no hay avatares" });
    await user.click(screen.getAllByRole("button", { name: "Crear un avatar" })[0]!);
    const dialog = await screen.findByRole("dialog", { name: "Crear un avatar" });
    expect(within(dialog).getByLabelText("Solo Discord")).toBeTruthy();
    expect(within(dialog).getByLabelText("Estado").textContent).toBe("Pública");
    expect(within(dialog).getByRole("button", { name: "Crear" })).toBeTruthy();
  });
});
