// The two demo accounts that can sign in, inserted by ../seed.ts.

export const DEMO_PASSWORD = "hearth-demo";

export const DEMO_USERS = [
  {
    key: "owner",
    email: "owner@hearth.test",
    name: "Olivia Owner",
    username: "olivia",
    headline: "Creator and community host",
    bio: "I run communities about making things and learning together.",
    location: "Lisbon",
  },
  {
    key: "member",
    email: "member@hearth.test",
    name: "Max Member",
    username: "max",
    headline: "Always learning",
    bio: "Member of a few communities; here for the courses and the people.",
    location: "Toronto",
  },
] as const;
