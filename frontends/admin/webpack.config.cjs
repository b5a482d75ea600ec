const { createWebpackConfig } = require("@tt/web-kit/webpack-config");

module.exports = createWebpackConfig({
  dir: __dirname,
  name: "admin",
  title: "Turntable · Admin",
  port: 3004,
  exposes: { "./App": "./src/App.tsx" },
});
