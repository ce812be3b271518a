"""An S3-compatible bucket for the tests: what an app server is told about it, and a look inside."""

from __future__ import annotations

from dataclasses import dataclass

BUCKET = "crusade-media"


@dataclass(frozen=True)
class ObjectStore:
    endpoint: str
    bucket: str

    def env(self) -> dict[str, str]:
        """What an app server is given to keep its pictures in this bucket."""
        return {
            "MEDIA_STORAGE": "s3",
            "AWS_STORAGE_BUCKET_NAME": self.bucket,
            "AWS_S3_ENDPOINT_URL": self.endpoint,
            "AWS_S3_REGION_NAME": "us-east-1",
            "AWS_ACCESS_KEY_ID": "crusade-test",
            "AWS_SECRET_ACCESS_KEY": "crusade-test-secret",
        }

    def client(self):
        import boto3

        env = self.env()
        return boto3.client(
            "s3",
            endpoint_url=self.endpoint,
            region_name=env["AWS_S3_REGION_NAME"],
            aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
            aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
        )

    def keys(self) -> list[str]:
        listing = self.client().list_objects_v2(Bucket=self.bucket)
        return sorted(item["Key"] for item in listing.get("Contents", []))
