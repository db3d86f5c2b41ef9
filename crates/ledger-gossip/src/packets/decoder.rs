//! Cuts messages out of the gossip byte stream (gossip.md §4: a message may be split across
//! reads and one read may hold several messages).
//!
//! The header is checked as soon as its three bytes are in, before the payload arrives, so
//! a bad type or length ends the stream at once and the buffer never holds more than one
//! message of the largest allowed size plus the bytes of the last read.

use super::{Header, Message, PacketError, HEADER_LEN};

#[derive(Default)]
pub struct Decoder {
    buf: Vec<u8>,
    /// Bytes of `buf` already consumed.
    start: usize,
    /// The header of the message being received, once checked.
    header: Option<Header>,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// Append bytes as they came off the stream.
    pub fn push(&mut self, bytes: &[u8]) {
        if self.start > 0 && (self.start == self.buf.len() || self.start >= self.buf.len() / 2) {
            self.buf.drain(..self.start);
            self.start = 0;
        }
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete message, `Ok(None)` when more bytes are needed. After an error the
    /// stream is unusable: there is no way to find the next message boundary.
    pub fn next_message(&mut self) -> Result<Option<Message>, PacketError> {
        let available = &self.buf[self.start..];
        let header = match self.header {
            Some(header) => header,
            None => {
                let Some(bytes) = available.get(..HEADER_LEN) else { return Ok(None) };
                let header = Header::parse([bytes[0], bytes[1], bytes[2]])?;
                self.start += HEADER_LEN;
                self.header = Some(header);
                header
            }
        };
        let available = &self.buf[self.start..];
        let Some(payload) = available.get(..header.payload_len()) else { return Ok(None) };
        let message = Message::decode(header, payload)?;
        self.start += header.payload_len();
        self.header = None;
        Ok(Some(message))
    }

    /// Bytes received but not yet returned as a message (including a checked header).
    pub fn buffered(&self) -> usize {
        self.buf.len() - self.start + if self.header.is_some() { HEADER_LEN } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packets::{
        BlockId, BlockPacket, BlockRequest, Heartbeat, MilestoneRequest, PacketType,
    };
    use rand::Rng;

    fn sample() -> Vec<Message> {
        vec![
            Message::Heartbeat(Heartbeat::new(7, 0, 7, 2, 1)),
            Message::MilestoneRequest(MilestoneRequest::Latest),
            Message::Block(BlockPacket::new(vec![0x5a; 32768]).unwrap()),
            Message::BlockRequest(BlockRequest::new(BlockId([3; 32]))),
            Message::Block(BlockPacket::new(vec![1]).unwrap()),
            Message::MilestoneRequest(MilestoneRequest::from_index(9)),
        ]
    }

    fn drain(decoder: &mut Decoder, out: &mut Vec<Message>) {
        while let Some(m) = decoder.next_message().unwrap() {
            out.push(m);
        }
    }

    #[test]
    fn all_in_one_read() {
        let stream: Vec<u8> = sample().iter().flat_map(|m| m.to_frame()).collect();
        let mut decoder = Decoder::new();
        decoder.push(&stream);
        let mut out = Vec::new();
        drain(&mut decoder, &mut out);
        assert_eq!(out, sample());
        assert_eq!(decoder.buffered(), 0);
    }

    #[test]
    fn byte_by_byte_and_random_pieces() {
        let stream: Vec<u8> = sample().iter().flat_map(|m| m.to_frame()).collect();
        let mut decoder = Decoder::new();
        let mut out = Vec::new();
        for byte in &stream {
            decoder.push(std::slice::from_ref(byte));
            drain(&mut decoder, &mut out);
        }
        assert_eq!(out, sample());

        let mut rng = rand::thread_rng();
        for _ in 0..50 {
            let (mut decoder, mut out, mut at) = (Decoder::new(), Vec::new(), 0);
            while at < stream.len() {
                let n = rng.gen_range(1..5000).min(stream.len() - at);
                decoder.push(&stream[at..at + n]);
                at += n;
                drain(&mut decoder, &mut out);
                assert!(decoder.buffered() <= 3 + 32768 + 5000);
            }
            assert_eq!(out, sample());
        }
    }

    #[test]
    fn a_bad_header_fails_before_its_payload_arrives() {
        let mut decoder = Decoder::new();
        decoder.push(&Message::Heartbeat(Heartbeat::default()).to_frame());
        decoder.push(&[0x02, 0x00, 0x00]);
        assert!(decoder.next_message().unwrap().is_some());
        assert_eq!(
            decoder.next_message(),
            Err(PacketError::InvalidLength {
                packet_type: PacketType::Block,
                length: 0,
                min: 1,
                max: 32768
            })
        );

        let mut decoder = Decoder::new();
        decoder.push(&[0x09, 0xff]);
        assert_eq!(decoder.next_message(), Ok(None));
        decoder.push(&[0xff]);
        assert_eq!(decoder.next_message(), Err(PacketError::UnknownType(9)));

        let mut decoder = Decoder::new();
        decoder.push(&[0x04, 0x0f, 0x00]);
        assert!(matches!(decoder.next_message(), Err(PacketError::InvalidLength { .. })));
    }
}
