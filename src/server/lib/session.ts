import { fromNodeHeaders } from "better-auth/node";
import type { FastifyRequest } from "fastify";
import type { Viewer } from "../context";
import type { Auth } from "./auth";

/** The signed-in user of a request (looked up once per request), or null. */
export function createViewerLookup(auth: Auth) {
  return (request: FastifyRequest): Promise<Viewer | null> => {
    request.viewerPromise ??= auth.api.getSession({ headers: fromNodeHeaders(request.headers) }).then((s) =>
      s
        ? {
            id: s.user.id,
            email: s.user.email,
            name: s.user.name,
            emailVerified: s.user.emailVerified,
            sessionId: s.session.id,
          }
        : null,
    );
    return request.viewerPromise;
  };
}
