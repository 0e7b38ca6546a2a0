-- Post images uploaded before files were linked to their posts: link them now, so deleting the post
-- deletes them and the hourly sweep never takes them for abandoned uploads.
UPDATE media_files f
   SET post_id = p.id
  FROM posts p
 WHERE f.purpose = 'post'
   AND f.post_id IS NULL
   AND f.community_id = p.community_id
   AND p.media_urls @> jsonb_build_array(jsonb_build_object('url', '/media/' || f.key));
