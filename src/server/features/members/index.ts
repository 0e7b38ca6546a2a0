// What other features use of members (reports ban an author as the members list would).
export { removeMember } from "./members.service";
