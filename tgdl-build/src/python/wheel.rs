//! A pure-Python wheel written without Python: the `tgdl` support package (the PettingZoo
//! environment, the observation encoder and the Ray entry point) that every game wheel
//! depends on. A wheel is a zip archive (the `zip` crate); this one stores its files
//! uncompressed, with a fixed date, so the same sources give the same bytes.

/// The files of a wheel (`path`, `content`), in the order given; the `.dist-info`
/// directory (`METADATA`, `WHEEL`, `RECORD`) is added after them.
pub struct PureWheel<'a> {
    /// The distribution name, normalised (`tgdl`).
    pub name: &'a str,
    pub version: &'a str,
    /// The `METADATA` lines after `Name` and `Version` (`Summary: ...`, `Requires-Dist: ...`).
    pub metadata: &'a [String],
    pub generator: &'a str,
    pub files: &'a [(String, Vec<u8>)],
}

impl PureWheel<'_> {
    /// `name-version-py3-none-any.whl`.
    pub fn file_name(&self) -> String {
        format!("{}-{}-py3-none-any.whl", self.name.replace('-', "_"), self.version)
    }

    /// The bytes of the wheel.
    pub fn to_bytes(&self) -> Vec<u8> {
        let info = format!("{}-{}.dist-info", self.name.replace('-', "_"), self.version);
        let mut metadata = format!("Metadata-Version: 2.1\nName: {}\nVersion: {}\n", self.name, self.version);
        for line in self.metadata {
            metadata.push_str(line);
            metadata.push('\n');
        }
        let wheel = format!(
            "Wheel-Version: 1.0\nGenerator: {}\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
            self.generator
        );
        let mut entries: Vec<(String, Vec<u8>)> = self.files.to_vec();
        entries.push((format!("{info}/METADATA"), metadata.into_bytes()));
        entries.push((format!("{info}/WHEEL"), wheel.into_bytes()));
        let mut record = String::new();
        for (path, data) in &entries {
            record.push_str(&format!("{path},sha256={},{}\n", base64_url(&sha256(data)), data.len()));
        }
        record.push_str(&format!("{info}/RECORD,,\n"));
        entries.push((format!("{info}/RECORD"), record.into_bytes()));
        zip_stored(&entries)
    }
}

/// A zip archive of `entries`, stored (no compression), dated 1980-01-01, mode 0644: the
/// same entries give the same bytes.
pub fn zip_stored(entries: &[(String, Vec<u8>)]) -> Vec<u8> {
    use std::io::Write;
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(zip::DateTime::default())
        .unix_permissions(0o644);
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in entries {
        // Writing into memory cannot fail but for a name or size zip cannot hold.
        zip.start_file(name.as_str(), options).expect("a wheel entry");
        zip.write_all(data).expect("writing into memory");
    }
    zip.finish().expect("writing into memory").into_inner()
}

/// SHA-256, as a wheel's `RECORD` lists the hash of every file.
pub fn sha256(data: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(data).into()
}

/// URL-safe base64 without padding (`RECORD`'s hash encoding).
pub fn base64_url(data: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn sha256_matches_the_standard_vectors() {
        assert_eq!(hex(&sha256(b"")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(hex(&sha256(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        let long = b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
        assert_eq!(hex(&sha256(long)), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
        let million = vec![b'a'; 1_000_000];
        assert_eq!(
            hex(&sha256(&million)),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        );
    }

    #[test]
    fn base64_matches_its_standard() {
        assert_eq!(base64_url(b"f"), "Zg");
        assert_eq!(base64_url(b"fo"), "Zm8");
        assert_eq!(base64_url(b"foo"), "Zm9v");
        assert_eq!(base64_url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn a_wheel_lists_every_file_with_its_hash() {
        let files = vec![("tgdl_ray.py".to_string(), b"print('hi')\n".to_vec())];
        let metadata = vec!["Requires-Python: >=3.9".to_string()];
        let wheel = PureWheel {
            name: "tgdl",
            version: "0.1.0",
            metadata: &metadata,
            generator: "test",
            files: &files,
        };
        assert_eq!(wheel.file_name(), "tgdl-0.1.0-py3-none-any.whl");
        let bytes = wheel.to_bytes();
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("Name: tgdl\nVersion: 0.1.0\nRequires-Python: >=3.9\n"));
        let line = format!("tgdl_ray.py,sha256={},12\n", base64_url(&sha256(b"print('hi')\n")));
        assert!(text.contains(&line), "{text}");
        assert!(text.contains("tgdl-0.1.0.dist-info/RECORD,,\n"));
        // The end of the central directory: four entries, and where the directory starts.
        let end = &bytes[bytes.len() - 22..];
        assert_eq!(&end[..4], &0x0605_4b50u32.to_le_bytes());
        assert_eq!(u16::from_le_bytes([end[10], end[11]]), 4);
        let start = u32::from_le_bytes([end[16], end[17], end[18], end[19]]) as usize;
        assert_eq!(&bytes[start..start + 4], &0x0201_4b50u32.to_le_bytes());
        assert_eq!(wheel.to_bytes(), bytes, "the same files give the same bytes");
    }
}
