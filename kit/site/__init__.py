"""The website, for residents, contractors, industries and staff: the build's steps (pages,
the theme's hooks, the security policy and offline cache, the guard that no account file is
published) into site/, swapped in whole."""
