"""What the browser fixtures share (conftest.py and the files with a browser of their own)."""


def clear_storage(page, site_url):
    """The origin's localStorage, IndexedDB and cookies cleared; its Cache Storage kept."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Storage.clearDataForOrigin", {"origin": site_url, "storageTypes": "local_storage,indexeddb,cookies"})
    cdp.detach()
