// Stylesheets are bundled by webpack (mini-css-extract-plugin); importing one only adds it to the page.
declare module "*.css";
