export { LevelAvatar, LevelBadge, levelLabel } from "./components/level-badge";
export { applyLevelUps } from "./api/level-up";
export { useLevelNames } from "./api/use-level-names";
