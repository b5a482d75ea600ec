const { createWebpackConfig } = require("@tt/web-kit/webpack-config");

module.exports = createWebpackConfig({
  dir: __dirname,
  name: "crates",
  title: "Turntable · Crates",
  port: 3002,
  exposes: { "./App": "./src/App.tsx" },
});
