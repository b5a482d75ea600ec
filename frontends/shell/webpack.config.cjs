const { createWebpackConfig } = require("@tt/web-kit/webpack-config");

module.exports = createWebpackConfig({ dir: __dirname, name: "shell", title: "Turntable", port: 3000, host: true });
