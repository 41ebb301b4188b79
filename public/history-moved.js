// The upload list was history.html until an entrypoint of that name turned out to replace the
// browser's own History page; bookmarks of the old address land on the new one.
location.replace('/uploads.html');
