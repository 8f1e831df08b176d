//! Getting a view out of the page, on the user's request only: downloads (bundle, PNG, SVG, CSV),
//! the permalink, the compressed inline link, and keeping runs in this browser's storage.

use base64::Engine;
use wasm_bindgen::{JsCast, JsValue};

/// Inline links longer than this (characters of the fragment) are not offered: past it, chat
/// apps and browsers' address bars start to cut links. The exported bundle has no limit.
pub const INLINE_LIMIT: usize = 32 * 1024;

/// Runs kept in this browser are stored under this key, up to [`KEEP_LIMIT`] bytes.
pub const KEEP_KEY: &str = "tpsview.kept-runs";
/// localStorage holds about 5 MB per site.
pub const KEEP_LIMIT: usize = 4 << 20;

/// Offers bytes as a download named `name`.
pub fn download(name: &str, mime: &str, bytes: &[u8]) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let result = click_link(&url, name);
    web_sys::Url::revoke_object_url(&url)?;
    result
}

/// Offers a data: URL (a canvas's PNG) as a download.
pub fn download_url(name: &str, url: &str) -> Result<(), JsValue> {
    click_link(url, name)
}

fn click_link(href: &str, name: &str) -> Result<(), JsValue> {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a")?.dyn_into()?;
    a.set_href(href);
    a.set_download(name);
    a.click();
    Ok(())
}

/// This page's address without query or fragment.
pub fn base_url() -> String {
    web_sys::window()
        .map(|w| {
            let l = w.location();
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

/// A permalink: the runs' source URLs, the mapping a file no reader knows was read through, and
/// the view, in the query string.
pub fn permalink(sources: &[String], view: &crate::view::View, mapping: Option<&str>) -> String {
    let params = web_sys::UrlSearchParams::new().ok();
    let Some(params) = params else {
        return base_url();
    };
    for s in sources {
        params.append("src", s);
    }
    if let Some(m) = mapping {
        params.append("map", m);
    }
    let v = view.to_json();
    if v != "{}" {
        params.append("view", &v);
    }
    format!("{}?{}#viewer", base_url(), String::from(params.to_string()))
}

/// Compresses (deflate-raw) or decompresses bytes with the browser's own streams.
async fn transform(bytes: &[u8], compress: bool) -> Result<Vec<u8>, JsValue> {
    let name = if compress {
        "CompressionStream"
    } else {
        "DecompressionStream"
    };
    let ctor: js_sys::Function =
        js_sys::Reflect::get(&js_sys::global(), &name.into())?.dyn_into()?;
    let stream = js_sys::Reflect::construct(&ctor, &js_sys::Array::of1(&"deflate-raw".into()))?;
    let readable: web_sys::ReadableStream =
        js_sys::Reflect::get(&stream, &"readable".into())?.dyn_into()?;
    let writable: web_sys::WritableStream =
        js_sys::Reflect::get(&stream, &"writable".into())?.dyn_into()?;
    let pair = web_sys::ReadableWritablePair::new(&readable, &writable);
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts)?;
    let out = blob.stream().pipe_through(&pair);
    let resp = web_sys::Response::new_with_opt_readable_stream(Some(&out))?;
    let buf = wasm_bindgen_futures::JsFuture::from(resp.array_buffer()?).await?;
    Ok(js_sys::Uint8Array::new(&buf).to_vec())
}

/// The inline link of a bundle: `#bundle=` + base64url(deflate-raw(bundle)); `None` when longer
/// than [`INLINE_LIMIT`].
pub async fn inline_link(bundle: &str) -> Result<Option<String>, JsValue> {
    let packed = transform(bundle.as_bytes(), true).await?;
    let text = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(packed);
    Ok((text.len() <= INLINE_LIMIT).then(|| format!("{}#bundle={text}", base_url())))
}

/// The bundle an inline link's fragment holds.
pub async fn read_inline(fragment: &str) -> Result<Vec<u8>, String> {
    let packed = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(fragment.trim())
        .map_err(|e| format!("the link's data is not base64url: {e}"))?;
    transform(&packed, false)
        .await
        .map_err(|e| format!("the link's data does not decompress: {e:?}"))
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Keeps a bundle in this browser; says why not when it cannot.
pub fn keep(bundle: &str) -> Result<(), String> {
    if bundle.len() > KEEP_LIMIT {
        return Err(format!(
            "these runs are {:.1} MB as a bundle; this browser keeps at most {} MB: export the bundle instead",
            bundle.len() as f64 / 1e6,
            KEEP_LIMIT >> 20
        ));
    }
    storage()
        .ok_or("this browser offers no local storage")?
        .set_item(KEEP_KEY, bundle)
        .map_err(|_| "the browser refused to store the runs (storage full or disabled)".to_owned())
}

/// The bundle kept in this browser, if any.
pub fn kept() -> Option<String> {
    storage()?.get_item(KEEP_KEY).ok()?
}

/// Forgets the kept bundle.
pub fn forget() {
    if let Some(s) = storage() {
        let _ = s.remove_item(KEEP_KEY);
    }
}
