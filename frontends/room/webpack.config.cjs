const { createWebpackConfig } = require("@tt/web-kit/webpack-config");

module.exports = createWebpackConfig({
  dir: __dirname,
  name: "room",
  title: "Turntable · Rooms",
  port: 3001,
  exposes: { "./App": "./src/App.tsx", "./LiveNow": "./src/LiveNow.tsx" },
});
