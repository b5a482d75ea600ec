// A bot in 30 lines (README.md shows it; tests/e2e/bot-kit.e2e.test.ts runs it): it signs in with its bot token,
// joins a room, queues the demo songs, takes a DJ seat, and answers whoever mentions it in chat.
// Run it: BOT_TOKEN=… ROOM=lobby TT_URL=http://localhost:8080 node --experimental-transform-types hello-dj.ts
import { signIn, type Protocol, type RoomSession } from "@tt/bot";

export async function startHelloDj(o: { baseUrl: string; token: string; room: string; protocol?: Protocol }) {
  const bot = await signIn({ baseUrl: o.baseUrl, token: o.token, protocol: o.protocol });
  const room: RoomSession = bot.join(o.room, {
    onMention: async (message) => {
      await room.say(`@${message.userName} hello! I play the demo songs; like them if you do.`);
    },
    onKicked: (kicked) => process.stderr.write(`kicked: ${kicked.reason}\n`),
  });
  await room.waitFor(() => true, { what: "the room's stage" });

  const demo = await bot.clients.playlist.catalogue.listSongs({ demo: true, limit: 20 });
  await bot.queueSongs(demo.songs.map((song) => ({ songId: song.songId })));
  if (!room.stage()!.seats.some((seat) => seat.userUuid === bot.uuid)) await room.takeSeat();
  await room.say("Hello, room! Mention me and I answer.");
  return { bot, room };
}

if (import.meta.main) {
  const { BOT_TOKEN, ROOM, TT_URL = "http://localhost:8080" } = process.env;
  if (!BOT_TOKEN || !ROOM) throw new Error("set BOT_TOKEN (a bot token) and ROOM (a room's slug or uuid)");
  await startHelloDj({ baseUrl: TT_URL, token: BOT_TOKEN, room: ROOM });
}
