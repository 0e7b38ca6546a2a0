export * from "./auth";
export * from "./communities";
export * from "./courses";
export * from "./infra";
export * from "./notifications";
export * from "./payments";
export * from "./posts";
export * from "./profiles";
