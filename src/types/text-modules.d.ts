// Files imported `with { type: "text" }` (migrations, web assets) are strings.
declare module "*.sql" {
  const text: string;
  export default text;
}
