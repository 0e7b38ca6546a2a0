export { profileQueryKeys } from "./api/get-public-profile";
