import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { SESSION_COOKIE } from "#server/lib/session";
import { addApiDocsPolicy } from "./security";

/** The OpenAPI document, collected from the routes' schemas: registered before them. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: "Hearth API", version: "0.1.0", description: "The Hearth community platform API." },
      components: { securitySchemes: { session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE } } },
    },
    transform: jsonSchemaTransform,
  });
}

/** /api/openapi.json and the API reference page at /api/docs: registered after the routes. */
export async function registerApiReference(app: FastifyInstance): Promise<void> {
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  addApiDocsPolicy(app);
  const { default: scalar } = await import("@scalar/fastify-api-reference");
  await app.register(scalar, {
    routePrefix: "/api/docs",
    configuration: { url: "/api/openapi.json", title: "Hearth API", withDefaultFonts: false },
  });
}
