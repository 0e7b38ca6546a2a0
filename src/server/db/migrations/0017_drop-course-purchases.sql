-- Course access is read from entitlements; 0016 copied every purchase into a course entitlement.
DROP TABLE "course_purchases" CASCADE;