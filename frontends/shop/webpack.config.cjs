const { createWebpackConfig } = require("@tt/web-kit/webpack-config");

module.exports = createWebpackConfig({
  dir: __dirname,
  name: "shop",
  title: "Turntable · Shop",
  port: 3003,
  exposes: { "./App": "./src/App.tsx" },
});
