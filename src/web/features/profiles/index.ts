export { profileQueryKeys, publicProfileQueryOptions } from "./api/get-public-profile";
